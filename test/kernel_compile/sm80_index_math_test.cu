/// @file test/kernel_compile/sm80_index_math_test.cu
/// Host-only replay of the sm80 tensor-op GEMM's index math (no GPU needed; nvcc compiles the
/// headers, nothing is launched). For each configuration it runs every CTA of a problem through
///   Sm80TileLoader (global -> swizzled stage, with the kernel's own predicates),
///   the warp fragment readers (ldmatrix / ldmatrix.trans / 32-bit loads emulated per PTX ISA
///   "ldmatrix"), an mma.sync emulator that decodes fragments with the PTX ISA "Matrix Fragments
///   for mma.m16n8k16 / m16n8k8 / m16n8k32" tables (written here independently of the kernel),
///   and Sm80EpilogueStaged's slab mapping with the real LinearCombination,
/// and compares D with a reference GEMM exactly (small integer data keeps every sum exact).
/// It also checks: every stage byte is written once per k-tile, no vector reads outside the
/// operand, no D element outside M x N is written, each D element is written once, beta == 0
/// never reads C (C is NaN there), D aliasing C, and bank-conflict freedom of the 16-byte
/// cp.async stores, ldmatrix phases, 32-bit fragment loads and epilogue slab writes.
/// The pipeline order (which stage, when to wait) is not replayed here: a single stage buffer
/// is refilled per k-tile.
///
/// Build and run: nvcc -std=c++17 -I include test/kernel_compile/sm80_index_math_test.cu -o t && ./t
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <set>
#include <vector>

#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/epilogue/threadblock/sm80_epilogue_staged.h"
#include "cutlass/gemm/threadblock/sm80_mma_multistage.h"
#include "cutlass/layout/matrix.h"

namespace {

using namespace cutlass;
using gemm::GemmShape;

int g_failures = 0;

#define CHECK(cond, ...)                                \
  do {                                                  \
    if (!(cond)) {                                      \
      if (++g_failures <= 20) {                         \
        std::printf("  FAIL %s:%d: ", __FILE__, __LINE__); \
        std::printf(__VA_ARGS__);                       \
        std::printf("\n");                              \
      }                                                 \
    }                                                   \
  } while (0)

// ---- element values: small integers, exact in every type ----
template <typename T> T make_value(int v);
template <> half_t make_value<half_t>(int v) { return __float2half_rn(float(v)); }
template <> bfloat16_t make_value<bfloat16_t>(int v) { return __float2bfloat16_rn(float(v)); }
template <> tfloat32_t make_value<tfloat32_t>(int v) { return tfloat32_t{float(v)}; }
template <> int8_t make_value<int8_t>(int v) { return int8_t(v); }
template <> float make_value<float>(int v) { return float(v); }
template <> int32_t make_value<int32_t>(int v) { return v; }

template <typename T> double to_double(T x);
template <> double to_double<half_t>(half_t x) { return __half2float(x); }
template <> double to_double<bfloat16_t>(bfloat16_t x) { return __bfloat162float(x); }
template <> double to_double<tfloat32_t>(tfloat32_t x) { return x.storage; }
template <> double to_double<int8_t>(int8_t x) { return x; }
template <> double to_double<float>(float x) { return x; }
template <> double to_double<int32_t>(int32_t x) { return x; }

template <typename T> T nan_value();
template <> half_t nan_value<half_t>() { return __float2half_rn(NAN); }
template <> bfloat16_t nan_value<bfloat16_t>() { return __float2bfloat16_rn(NAN); }
template <> float nan_value<float>() { return NAN; }
template <> int32_t nan_value<int32_t>() { return int32_t(0x7fc00000); }

template <typename T>
bool same_bits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

/// Value of element `e` (0-based, lowest bytes first) of a 32-bit fragment register.
template <typename T>
double reg_element(uint32_t reg, int e) {
  T x;
  std::memcpy(&x, reinterpret_cast<uint8_t const *>(&reg) + e * sizeof(T), sizeof(T));
  return to_double(x);
}

// ---- one configuration ----
template <typename ElementA, typename LayoutA, int kAlignA, typename ElementB, typename LayoutB, int kAlignB,
          typename ElementC, int kAlignC, typename ElementAcc, typename TB, typename Warp, int kStages>
struct Case {
  static constexpr bool kAKMajor = std::is_same<LayoutA, layout::RowMajor>::value;
  static constexpr bool kBKMajor = std::is_same<LayoutB, layout::ColumnMajor>::value;
  using Mma = gemm::threadblock::Sm80MmaMultistage<ElementA, kAKMajor, kAlignA, ElementB, kBKMajor, kAlignB, ElementAcc,
                                                   TB, Warp, kStages>;
  using Op = epilogue::thread::LinearCombination<ElementC, ElementAcc, ElementAcc>;
  using Epilogue = epilogue::threadblock::Sm80EpilogueStaged<ElementC, kAlignC, ElementAcc, Op, TB::kM, TB::kN,
                                                               Warp::kM, Warp::kN>;
  static constexpr int kThreads = Mma::kThreads;
  static constexpr int kKStep = Mma::Instruction::Shape::kK;   // elements of K per k-step

  // ----- bank-conflict checks (static: depend on lane / thread only) -----
  static void check_banks() {
    using LA = typename Mma::LoaderA;
    using LB = typename Mma::LoaderB;
    check_store_banks<LA>("A");
    check_store_banks<LB>("B");
    for (int w = 0; w < Mma::kWarpsM; ++w) check_read_banks<typename Mma::WarpLoaderA, true>(w * Mma::kWarpM, "A");
    for (int w = 0; w < Mma::kWarpsN; ++w) check_read_banks<typename Mma::WarpLoaderB, false>(w * Mma::kWarpN, "B");
    // epilogue slab writes: one store instruction = fixed (warp, i, jj, v), 32 lanes
    for (int wm = 0; wm < Mma::kWarpsM; ++wm)
      for (int wn = 0; wn < Mma::kWarpsN; ++wn)
        for (int i = 0; i < Mma::kMTiles; ++i)
          for (int jj = 0; jj < Epilogue::kNTilesPerStep; ++jj)
            for (int v = 0; v < 4; ++v) {
              std::set<int> banks;
              for (int lane = 0; lane < 32; ++lane)
                banks.insert(Epilogue::fragment_slab_offset(wm, wn, lane, i, jj, v) % 32);
              CHECK(banks.size() == 32, "epilogue slab store conflicts (%zu banks)", banks.size());
            }
  }

  template <typename Loader>
  static void check_store_banks(char const *name) {
    // Chunk stores (16-byte cp.async, or the register path's 16-byte st.shared): each 8-thread
    // phase must hit 8 distinct 16-byte positions of a 128-byte line. (cp.async pieces of 4 or
    // 8 bytes are checked for correctness only.)
    for (int t0 = 0; t0 < kThreads; t0 += 8)
      for (int pr = 0; pr < Loader::kPassesRow; ++pr)
        for (int pc = 0; pc < Loader::kPassesColumn; ++pc) {
          std::set<int> pos;
          for (int t = t0; t < t0 + 8; ++t) {
            int row = Loader::row_of(t, pr);
            int col = Loader::column_of(t, pc);
            pos.insert((Loader::SmemLayout::offset_bytes(row, col) / 16) % 8);
          }
          CHECK(pos.size() == 8, "%s chunk store phase conflicts", name);
        }
  }

  /// How operand A (kIsA) or B is read from shared memory in this configuration.
  template <bool kIsA>
  static constexpr gemm::threadblock::Sm80FragmentRead read_kind() {
    return kIsA ? gemm::threadblock::sm80_fragment_read<int(sizeof(ElementA)), kAKMajor>()
                : gemm::threadblock::sm80_fragment_read<int(sizeof(ElementB)), kBKMajor>();
  }

  template <typename WarpLoader, bool kIsA>
  static void check_read_banks(int warp_mn, char const *name) {
    std::vector<WarpLoader> lanes;
    for (int lane = 0; lane < 32; ++lane) lanes.emplace_back(lane, warp_mn);
    for (int kk = 0; kk < Mma::kKSteps; ++kk) {
      if constexpr (read_kind<kIsA>() == gemm::threadblock::Sm80FragmentRead::kLds32) {
        for (int tile = 0; tile < WarpLoader::kTiles; ++tile)
          for (int reg = 0; reg < WarpLoader::kRegs; ++reg) {
            std::set<int> banks;
            for (int lane = 0; lane < 32; ++lane) banks.insert((lanes[lane].offset(tile, reg, kk) / 4) % 32);
            CHECK(banks.size() == 32, "%s 32-bit fragment load conflicts (%zu banks)", name, banks.size());
          }
      } else {
        for (int l = 0; l < WarpLoader::kLoads; ++l)
          for (int j = 0; j < 4; ++j) {
            std::set<int> pos;
            for (int r = 0; r < 8; ++r) pos.insert((lanes[8 * j + r].offset(l, kk) / 16) % 8);
            CHECK(pos.size() == 8, "%s ldmatrix phase conflicts", name);
          }
      }
    }
  }

  // ----- fragment reads (emulated hardware) -----
  template <typename WarpLoader, bool kIsA, typename Fragment>
  static void read_fragments(std::vector<uint8_t> const &stage, int warp_mn, int kk, Fragment (&frag)[32]) {
    std::vector<WarpLoader> lanes;
    for (int lane = 0; lane < 32; ++lane) lanes.emplace_back(lane, warp_mn);
    auto word = [&](uint32_t off) {
      CHECK(off + 4 <= stage.size() && off % 4 == 0, "fragment read at %u outside the stage / misaligned", off);
      uint32_t w = 0;
      if (off + 4 <= stage.size()) std::memcpy(&w, &stage[off], 4);
      return w;
    };
    auto half = [&](uint32_t off) {
      CHECK(off + 2 <= stage.size(), "fragment read at %u outside the stage", off);
      uint16_t h = 0;
      if (off + 2 <= stage.size()) std::memcpy(&h, &stage[off], 2);
      return uint32_t(h);
    };
    if constexpr (read_kind<kIsA>() == gemm::threadblock::Sm80FragmentRead::kLds32) {
      for (int lane = 0; lane < 32; ++lane)
        for (int tile = 0; tile < WarpLoader::kTiles; ++tile)
          for (int reg = 0; reg < WarpLoader::kRegs; ++reg) frag[lane][tile][reg] = word(lanes[lane].offset(tile, reg, kk));
    } else {
      constexpr bool kTrans = read_kind<kIsA>() == gemm::threadblock::Sm80FragmentRead::kLdsmTrans;
      for (int l = 0; l < WarpLoader::kLoads; ++l) {
        uint32_t row_addr[32];
        for (int lane = 0; lane < 32; ++lane) {
          row_addr[lane] = lanes[lane].offset(l, kk);
          CHECK(row_addr[lane] % 16 == 0, "ldmatrix row address not 16-byte aligned");
        }
        for (int lane = 0; lane < 32; ++lane) {
          uint32_t d[4];
          for (int j = 0; j < 4; ++j) {
            if (!kTrans) {
              // lane gets 32-bit word lane%4 of row lane/4 of matrix j
              d[j] = word(row_addr[8 * j + lane / 4] + 4 * (lane % 4));
            } else {
              // lane gets (row 2(lane%4), col lane/4) low and (row 2(lane%4)+1, col lane/4) high
              d[j] = half(row_addr[8 * j + 2 * (lane % 4)] + 2 * (lane / 4)) |
                     (half(row_addr[8 * j + 2 * (lane % 4) + 1] + 2 * (lane / 4)) << 16);
            }
          }
          gemm::threadblock::sm80_scatter_ldsm_x4<kIsA>(frag[lane], l, d);
        }
      }
    }
  }

  // ----- the whole problem -----
  static void run(int M, int N, int K, int batch, double alpha_i, double beta_i, bool alias, std::mt19937 &rng) {
    using LA = typename Mma::LoaderA;
    using LB = typename Mma::LoaderB;
    std::uniform_int_distribution<int> dist(-3, 3);
    // A: M x K, B: K x N in their layouts, padded ld, batch stride > one matrix.
    int64_t lda = (kAKMajor ? K : M) + 2 * kAlignA;
    int64_t ldb = (kBKMajor ? K : N) + 2 * kAlignB;
    int64_t ldc = M + kAlignC;
    int64_t size_a = lda * (kAKMajor ? M : K), size_b = ldb * (kBKMajor ? N : K), size_c = ldc * N;
    int64_t stride_a = size_a + 8 * kAlignA, stride_b = size_b + 8 * kAlignB, stride_c = size_c + 4 * kAlignC;
    std::vector<ElementA> A(stride_a * batch);
    std::vector<ElementB> B(stride_b * batch);
    std::vector<ElementC> C(stride_c * batch), D(stride_c * batch);
    for (auto &x : A) x = make_value<ElementA>(dist(rng));
    for (auto &x : B) x = make_value<ElementB>(dist(rng));
    for (auto &x : C) x = beta_i == 0 ? nan_value<ElementC>() : make_value<ElementC>(dist(rng));
    ElementC const sentinel = make_value<ElementC>(77);
    std::vector<ElementC> C_copy = C;
    if (!alias) for (auto &x : D) x = sentinel;
    std::vector<ElementC> &Dout = alias ? C : D;   // D == C: elements outside M x N keep C's values
    std::vector<int> writes(stride_c * batch, 0);

    typename Op::Params op_params;
    op_params.alpha = ElementAcc(alpha_i);
    op_params.beta = ElementAcc(beta_i);
    Op const op(op_params);

    int tiles_m = (M + TB::kM - 1) / TB::kM, tiles_n = (N + TB::kN - 1) / TB::kN;
    for (int l = 0; l < batch; ++l)
      for (int tm = 0; tm < tiles_m; ++tm)
        for (int tn = 0; tn < tiles_n; ++tn) {
          int m0 = tm * TB::kM, n0 = tn * TB::kN;
          ElementA const *pa = A.data() + l * stride_a;
          ElementB const *pb = B.data() + l * stride_b;
          std::vector<LA> la;
          std::vector<LB> lb;
          for (int t = 0; t < kThreads; ++t) {
            la.emplace_back(pa, lda, M, m0, t);
            lb.emplace_back(pb, ldb, N, n0, t);
          }
          // acc[warp][lane][i][j][v]
          std::vector<double> acc(size_t(Mma::kWarpsM * Mma::kWarpsN) * 32 * Mma::kMTiles * Mma::kNTiles * 4, 0.0);
          auto acc_at = [&](int warp, int lane, int i, int j, int v) -> double & {
            return acc[(((size_t(warp) * 32 + lane) * Mma::kMTiles + i) * Mma::kNTiles + j) * 4 + v];
          };
          std::vector<uint8_t> stage_a(Mma::kStageBytesA), stage_b(Mma::kStageBytesB);
          int k_tiles = (K + TB::kK - 1) / TB::kK;
          int k_remaining = K;
          for (int kt = 0; kt < k_tiles; ++kt) {
            // a valid vector must lie inside the logical M x K (K x N) matrix, not merely the allocation
            auto inside_a = [&](int64_t off, int len) {
              int64_t outer = off / lda, inner = off % lda;
              return kAKMajor ? outer < M && inner + len <= K : outer < K && inner + len <= M;
            };
            auto inside_b = [&](int64_t off, int len) {
              int64_t outer = off / ldb, inner = off % ldb;
              return kBKMajor ? outer < N && inner + len <= K : outer < K && inner + len <= N;
            };
            fill_stage(la, stage_a, k_remaining, pa, inside_a, "A");
            fill_stage(lb, stage_b, k_remaining, pb, inside_b, "B");
            k_remaining -= TB::kK;
            for (int kk = 0; kk < Mma::kKSteps; ++kk)
              for (int warp = 0; warp < Mma::kWarpsM * Mma::kWarpsN; ++warp) {
                int wm = warp % Mma::kWarpsM, wn = warp / Mma::kWarpsM;
                typename Mma::FragmentA fa[32];
                typename Mma::FragmentB fb[32];
                read_fragments<typename Mma::WarpLoaderA, true>(stage_a, wm * Mma::kWarpM, kk, fa);
                read_fragments<typename Mma::WarpLoaderB, false>(stage_b, wn * Mma::kWarpN, kk, fb);
                for (int i = 0; i < Mma::kMTiles; ++i)
                  for (int j = 0; j < Mma::kNTiles; ++j) emulate_mma(fa, fb, i, j, [&](int lane, int v) -> double & {
                      return acc_at(warp, lane, i, j, v);
                    });
              }
          }
          run_epilogue(acc_at, op, op.is_source_needed(), l, stride_c, ldc, M, N, m0, n0, C, Dout, writes);
        }

    // reference and checks: every element of each batch's C/D region, guard band included
    for (int l = 0; l < batch; ++l)
      for (int64_t off = 0; off < stride_c; ++off) {
        int64_t idx = l * stride_c + off;
        int64_t m = off % ldc, n = off / ldc;
        if (!(m < M && n < N)) {
          ElementC expect = alias ? C_copy[idx] : sentinel;
          CHECK(same_bits(Dout[idx], expect) && writes[idx] == 0, "write outside M x N at (%lld, %lld) batch %d",
                (long long)m, (long long)n, l);
          continue;
        }
        CHECK(writes[idx] == 1, "D(%lld, %lld) batch %d written %d times", (long long)m, (long long)n, l, writes[idx]);
        double sum = 0;
        for (int64_t k = 0; k < K; ++k) {
          double a = to_double(A[l * stride_a + (kAKMajor ? m * lda + k : k * lda + m)]);
          double b = to_double(B[l * stride_b + (kBKMajor ? n * ldb + k : k * ldb + n)]);
          sum += a * b;
        }
        ElementC expect = op.is_source_needed() ? op(ElementAcc(sum), C_copy[idx]) : op(ElementAcc(sum));
        CHECK(same_bits(Dout[idx], expect), "D(%lld, %lld) batch %d = %g, expected %g", (long long)m, (long long)n, l,
              to_double(Dout[idx]), to_double(expect));
      }
  }

  template <typename Loader, typename Element, typename Inside>
  static void fill_stage(std::vector<Loader> &loaders, std::vector<uint8_t> &stage, int k_remaining,
                         Element const *base, Inside inside, char const *name) {
    std::vector<int> written(stage.size(), 0);
    std::fill(stage.begin(), stage.end(), uint8_t(0xAB));
    for (int t = 0; t < kThreads; ++t) {
      for (int pr = 0; pr < Loader::kPassesRow; ++pr)
        for (int pc = 0; pc < Loader::kPassesColumn; ++pc) {
          uint32_t chunk = loaders[t].chunk_smem_offset(pr, pc);
          CHECK(chunk % 16 == 0, "%s chunk misaligned", name);
          CHECK(chunk == Loader::SmemLayout::offset_bytes(Loader::row_of(t, pr), Loader::column_of(t, pc)),
                "%s chunk offset disagrees with the layout", name);
          for (int e = 0; e < Loader::kPieces; ++e) {
            uint32_t off = chunk + e * Loader::kPieceBytes;
            CHECK(off + Loader::kPieceBytes <= stage.size(), "%s store outside the stage", name);
            if (off + Loader::kPieceBytes > stage.size()) continue;
            for (int b = 0; b < Loader::kPieceBytes; ++b) written[off + b]++;
            if (loaders[t].piece_valid(pr, pc, e, k_remaining)) {
              Element const *src = loaders[t].piece_source(pr, pc, e);
              bool ok = src >= base && inside(src - base, Loader::kAlignment);
              CHECK(ok, "%s valid piece reads outside the matrix", name);
              if (ok) std::memcpy(&stage[off], src, Loader::kPieceBytes);
            } else {
              std::memset(&stage[off], 0, Loader::kPieceBytes);
            }
          }
        }
      loaders[t].advance();
    }
    for (size_t b = 0; b < written.size(); ++b) CHECK(written[b] == 1, "%s stage byte %zu written %d times", name, b, written[b]);
  }

  /// D(16x8) += A(16 x kKStep) B(kKStep x 8) with fragments decoded per the PTX ISA tables:
  /// A reg v, element e: m = g + 8 (v & 1), k = (t + 4 (v >> 1)) * epr + e;
  /// B reg v, element e: n = g, k = (t + 4 v) * epr + e;  C reg v: m = g + 8 (v >> 1), n = 2 t + (v & 1);
  /// epr = elements per 32-bit register, g = lane / 4, t = lane % 4.
  template <typename FA, typename FB, typename AccRef>
  static void emulate_mma(FA const (&fa)[32], FB const (&fb)[32], int i, int j, AccRef acc_ref) {
    constexpr int epa = 4 / int(sizeof(ElementA)), epb = 4 / int(sizeof(ElementB));
    double a[16][kKStep], b[kKStep][8];
    bool seen_a[16][kKStep] = {}, seen_b[kKStep][8] = {};
    for (int lane = 0; lane < 32; ++lane) {
      int g = lane / 4, t = lane % 4;
      for (int v = 0; v < 4; ++v)
        for (int e = 0; e < epa; ++e) {
          int m = g + 8 * (v & 1), k = (t + 4 * (v >> 1)) * epa + e;
          a[m][k] = reg_element<ElementA>(fa[lane][i][v], e);
          seen_a[m][k] = true;
        }
      for (int v = 0; v < 2; ++v)
        for (int e = 0; e < epb; ++e) {
          int k = (t + 4 * v) * epb + e;
          b[k][g] = reg_element<ElementB>(fb[lane][j][v], e);
          seen_b[k][g] = true;
        }
    }
    for (int m = 0; m < 16; ++m)
      for (int k = 0; k < kKStep; ++k) CHECK(seen_a[m][k], "A fragment misses (%d, %d)", m, k);
    for (int lane = 0; lane < 32; ++lane) {
      int g = lane / 4, t = lane % 4;
      for (int v = 0; v < 4; ++v) {
        int m = g + 8 * (v >> 1), n = 2 * t + (v & 1);
        double s = 0;
        for (int k = 0; k < kKStep; ++k) s += a[m][k] * b[k][n];
        acc_ref(lane, v) += s;
      }
    }
  }

  template <typename AccAt>
  static void run_epilogue(AccAt &acc_at, Op const &op, bool read_c, int l, int64_t stride_c, int64_t ldc, int M,
                           int N, int m0, int n0, std::vector<ElementC> &C, std::vector<ElementC> &D,
                           std::vector<int> &writes) {
    CHECK(Epilogue::kSmemBytes <= (Mma::kSmemBytes > Epilogue::kSmemBytes ? Mma::kSmemBytes : Epilogue::kSmemBytes),
          "slab larger than the shared memory");
    std::vector<ElementAcc> slab(Epilogue::kSmemBytes / sizeof(ElementAcc));
    std::vector<int> slab_writes(slab.size());
    std::set<std::pair<int, int>> tile_done;
    for (int step = 0; step < Epilogue::kSteps; ++step) {
      std::fill(slab_writes.begin(), slab_writes.end(), 0);
      for (int warp = 0; warp < Mma::kWarpsM * Mma::kWarpsN; ++warp) {
        int wm = warp % Mma::kWarpsM, wn = warp / Mma::kWarpsM;
        for (int lane = 0; lane < 32; ++lane)
          for (int jj = 0; jj < Epilogue::kNTilesPerStep; ++jj)
            for (int i = 0; i < Mma::kMTiles; ++i)
              for (int v = 0; v < 4; ++v) {
                int off = Epilogue::fragment_slab_offset(wm, wn, lane, i, jj, v);
                CHECK(off >= 0 && off < int(slab.size()), "slab write outside");
                if (off < 0 || off >= int(slab.size())) continue;
                slab[off] = ElementAcc(acc_at(warp, lane, i, step * Epilogue::kNTilesPerStep + jj, v));
                slab_writes[off]++;
              }
      }
      for (size_t w = 0; w < slab.size(); ++w) CHECK(slab_writes[w] <= 1, "slab word written twice");
      for (int thread = 0; thread < kThreads; ++thread)
        for (int it = 0; it < Epilogue::kIterations; ++it) {
          int row = Epilogue::vector_row(thread, it);
          int col = Epilogue::vector_slab_column(thread, it);
          int tile_col = Epilogue::slab_column_to_tile_column(col, step);
          CHECK(tile_col >= 0 && tile_col < TB::kN && row + kAlignC <= TB::kM, "epilogue vector outside the tile");
          for (int e = 0; e < kAlignC; ++e) CHECK(tile_done.insert({row + e, tile_col}).second, "tile element twice");
          int m = m0 + row, n = n0 + tile_col;
          if (!(m < M && n < N)) continue;
          for (int e = 0; e < kAlignC; ++e) {
            int off = col * Epilogue::kSlabLd + row + e;
            CHECK(slab_writes[off] == 1, "epilogue reads a slab word nobody wrote");
            int64_t idx = l * stride_c + int64_t(n) * ldc + m + e;
            ElementC out = read_c ? op(slab[off], C[idx]) : op(slab[off]);
            D[idx] = out;
            writes[idx]++;
          }
        }
    }
    CHECK(int(tile_done.size()) == TB::kM * TB::kN, "epilogue covers %zu of %d tile elements", tile_done.size(),
          TB::kM * TB::kN);
  }

  static void test(char const *name) {
    int before = g_failures;
    std::mt19937 rng(1234);
    check_banks();
    // K-contiguous / M-contiguous extents must be multiples of the alignments (can_implement_common).
    int am = kAKMajor ? 1 : kAlignA;
    int ak = kAKMajor ? kAlignA : 1;
    int bn = kBKMajor ? 1 : kAlignB;
    int bk = kBKMajor ? kAlignB : 1;
    int mm = std::max(am, kAlignC);
    int nm = bn;
    int km = std::max(ak, bk);
    auto round = [](int x, int m) { return (x + m - 1) / m * m; };
    struct Shape { int m, n, k, batch; double alpha, beta; bool alias; };
    Shape const shapes[] = {
        {TB::kM, TB::kN, TB::kK * 3, 1, 1, 0, false},                                         // exact tiles
        {round(TB::kM + 37, mm), round(TB::kN + 19, nm), round(2 * TB::kK + 5, km), 2, 2, -1, false},   // ragged, batched
        {round(13, mm), round(3, nm), round(7, km), 1, 1, 1, true},                            // tiny, D aliases C
        {round(TB::kM * 2 - 5, mm), round(TB::kN - 1, nm), round(TB::kK * 4 + TB::kK / 2 + 1, km), 1, -1, 0, false},
    };
    for (Shape const &s : shapes) run(s.m, s.n, s.k, s.batch, s.alpha, s.beta, s.alias, rng);
    std::printf("%-70s %s\n", name, g_failures == before ? "ok" : "FAILED");
  }
};

using RM = layout::RowMajor;
using CM = layout::ColumnMajor;
template <int M, int N, int K> using S = GemmShape<M, N, K>;

}  // namespace

#define CASE(...) Case<__VA_ARGS__>::test(#__VA_ARGS__)

int main() {
  // 16-bit, every layout, every alignment, f32 and 16-bit output
  CASE(half_t, RM, 8, half_t, CM, 8, half_t, 8, float, S<128, 256, 32>, S<64, 64, 32>, 3);
  CASE(half_t, CM, 8, half_t, CM, 8, float, 4, float, S<128, 128, 32>, S<64, 64, 32>, 4);
  CASE(half_t, RM, 8, half_t, RM, 8, half_t, 8, float, S<256, 128, 32>, S<64, 64, 32>, 3);
  CASE(half_t, CM, 8, half_t, RM, 8, half_t, 8, float, S<64, 64, 32>, S<32, 32, 32>, 5);
  CASE(bfloat16_t, RM, 8, bfloat16_t, CM, 8, bfloat16_t, 8, float, S<128, 128, 64>, S<64, 64, 64>, 3);
  CASE(bfloat16_t, CM, 8, bfloat16_t, RM, 8, float, 4, float, S<128, 128, 64>, S<64, 64, 64>, 3);
  CASE(bfloat16_t, RM, 4, bfloat16_t, CM, 4, bfloat16_t, 4, float, S<128, 128, 32>, S<64, 64, 32>, 3);
  CASE(bfloat16_t, CM, 2, bfloat16_t, RM, 2, bfloat16_t, 2, float, S<64, 64, 32>, S<32, 32, 32>, 3);
  CASE(half_t, RM, 1, half_t, CM, 1, half_t, 1, float, S<64, 64, 32>, S<32, 32, 32>, 3);
  CASE(half_t, CM, 1, half_t, RM, 1, float, 1, float, S<128, 128, 32>, S<64, 64, 32>, 3);
  CASE(half_t, RM, 2, half_t, RM, 1, half_t, 2, float, S<128, 256, 32>, S<64, 64, 32>, 3);
  // tf32, every layout and alignment
  CASE(tfloat32_t, RM, 4, tfloat32_t, CM, 4, float, 4, float, S<128, 128, 16>, S<64, 64, 16>, 4);
  CASE(tfloat32_t, CM, 4, tfloat32_t, RM, 4, float, 4, float, S<128, 256, 16>, S<64, 64, 16>, 3);
  CASE(tfloat32_t, CM, 2, tfloat32_t, CM, 2, float, 2, float, S<64, 64, 16>, S<32, 32, 16>, 3);
  CASE(tfloat32_t, RM, 1, tfloat32_t, RM, 1, float, 1, float, S<64, 64, 16>, S<32, 32, 16>, 3);
  CASE(tfloat32_t, RM, 4, tfloat32_t, RM, 4, float, 4, float, S<128, 128, 32>, S<64, 64, 32>, 3);
  // s8 TN, every alignment
  CASE(int8_t, RM, 16, int8_t, CM, 16, int32_t, 4, int32_t, S<128, 256, 64>, S<64, 64, 64>, 3);
  CASE(int8_t, RM, 8, int8_t, CM, 8, int32_t, 4, int32_t, S<128, 128, 64>, S<64, 64, 64>, 3);
  CASE(int8_t, RM, 4, int8_t, CM, 4, int32_t, 2, int32_t, S<64, 64, 64>, S<32, 32, 64>, 3);
  CASE(int8_t, RM, 2, int8_t, CM, 1, int32_t, 1, int32_t, S<64, 64, 64>, S<32, 32, 64>, 3);
  CASE(int8_t, RM, 16, int8_t, CM, 16, int32_t, 4, int32_t, S<128, 128, 128>, S<64, 64, 128>, 3);
  std::printf(g_failures ? "%d FAILURES\n" : "all passed\n", g_failures);
  return g_failures ? 1 : 0;
}
