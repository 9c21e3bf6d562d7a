/// @file src/library/gemm_selection.cpp
/// Which kernel runs a checked call: the fit rules, the cost model and the ranking
/// (gemm_selection.h states them).
#include "gemm_selection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cutlass/gemm/kernel/sm90_tile_scheduler.h"
#include "gemm_raster.h"
#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"

namespace cutlass {
namespace library {

bool selection_log_enabled() {
  static bool const enabled = [] {
    char const *v = std::getenv("CUTLASS_LIB_LOG");
    return v && v[0] && v[0] != '0';
  }();
  return enabled;
}

int max_alignment(GemmDescription const &d) { return std::max(d.A.alignment, std::max(d.B.alignment, d.C.alignment)); }

GemmDescription const &gemm_description(Operation const *op) {
  return static_cast<GemmDescription const &>(op->description());
}

int64_t bytes_of(NumericTypeID t) { return std::max(sizeof_bits(t), 8) / 8; }

int operand_alignment(NumericTypeID element, void const *ptr, int64_t ld, int64_t batch_stride, int64_t batch_count,
                      int64_t contiguous_extent) {
  int const bits = sizeof_bits(element);
  if (bits < 8) return 1;
  int const bytes = bits / 8;
  int alignment = 16 / bytes;   // 16-byte vector accesses at most
  if (alignment < 1) return 1;
  auto const address = reinterpret_cast<uintptr_t>(ptr);
  while (alignment > 1) {
    bool const fits = address % (uintptr_t(alignment) * bytes) == 0 && ld % alignment == 0 &&
                      (batch_count <= 1 || batch_stride % alignment == 0) && contiguous_extent % alignment == 0;
    if (fits) break;
    alignment /= 2;
  }
  return alignment;
}

bool description_fits(GemmDescription const &d, GemmCall const &c, int cc, char const **why) {
  TileDescription const &tile = d.tile_description;
  if (cc < tile.minimum_compute_capability || cc > tile.maximum_compute_capability) {
    *why = "compute capability";
    return false;
  }
  if (d.max_small_extent > 0 && std::min(c.m, c.n) > d.max_small_extent) {
    *why = "small side (min(M, N) above the kernel's limit)";
    return false;
  }
  // The sm90 few-token tile (tile N 32) serves calls whose N fits one tile: on the H200 it ran
  // 22016 x 32 x 4096 at 0.99x cuBLAS (the sm80 64x64 tile: 0.86x) but lost where the model
  // also ranked it first: N = 96 (0.61x against 0.74x), 64 x 8192 x 8192 (0.95x against 1.01x),
  // 128 x 4096 x 14336 (0.59x against stream-K's 0.88x) (docs/NOTES.md, s10). The few-row
  // (swap-AB) tiles, tile M 16 / 32, are its mirror and keep to calls whose M fits one tile.
  // Split-K slices are exempt: there the tile's short N side pays for itself (s18: the 64x32 tile
  // ran 128 x 128 x 65536 in 16-32 slices at 0.94-0.97x cuBLAS, the 64x64 tile at 0.84-0.89x).
  if (tile.minimum_compute_capability >= 90 && d.max_small_extent == 0 && !c.split_k_slices) {
    auto const &shape = tile.threadblock_shape;
    if (shape.n() < 64 && c.n > shape.n()) {
      *why = "N above the few-token tile's";
      return false;
    }
    if (shape.m() < 64 && c.m > shape.m()) {
      *why = "M above the few-row (swap-AB) tile's";
      return false;
    }
  }
  int64_t const extent_A = leading_extent(c.layout_A, c.m, c.k);
  int64_t const extent_B = leading_extent(c.layout_B, c.k, c.n);
  if (operand_alignment(c.element_A, c.A, c.lda, c.batch_stride_A, c.batch_count, extent_A) < d.A.alignment) {
    *why = "alignment of A";
    return false;
  }
  if (operand_alignment(c.element_B, c.B, c.ldb, c.batch_stride_B, c.batch_count, extent_B) < d.B.alignment) {
    *why = "alignment of B";
    return false;
  }
  if (operand_alignment(c.element_C, c.C, c.ldc, c.batch_stride_C, c.batch_count, c.m) < d.C.alignment ||
      operand_alignment(c.element_D, c.D, c.ldd, c.batch_stride_D, c.batch_count, c.m) < d.D.alignment) {
    *why = "alignment of C/D";
    return false;
  }
  return true;
}

GemmUniversalConfiguration configuration_of(GemmCall const &c) {
  GemmUniversalConfiguration cfg;
  cfg.mode = c.mode;
  cfg.problem_size = gemm::GemmCoord(int(c.m), int(c.n), int(c.k));
  cfg.batch_count = int(c.batch_count);
  cfg.lda = c.lda;
  cfg.ldb = c.ldb;
  cfg.ldc = c.ldc;
  cfg.ldd = c.ldd;
  return cfg;
}

GemmUniversalArguments arguments_of(GemmCall const &c) {
  GemmUniversalArguments args;
  args.problem_size = gemm::GemmCoord(int(c.m), int(c.n), int(c.k));
  args.batch_count = int(c.batch_count);
  args.A = c.A;
  args.B = c.B;
  args.C = c.C;
  args.D = c.D;
  args.alpha = c.alpha;
  args.beta = c.beta;
  args.pointer_mode = c.pointer_mode;
  args.lda = c.lda;
  args.ldb = c.ldb;
  args.ldc = c.ldc;
  args.ldd = c.ldd;
  args.batch_stride_A = c.batch_stride_A;
  args.batch_stride_B = c.batch_stride_B;
  args.batch_stride_C = c.batch_stride_C;
  args.batch_stride_D = c.batch_stride_D;
  args.epilogue = c.epilogue;
  return args;
}

/// The most preferred kernel that runs on this compute capability, whatever the alignment.
Operation const *first_for_device(GemmOperationVector const &candidates, int cc) {
  for (Operation const *op : candidates) {
    TileDescription const &tile = op->description().tile_description;
    if (cc >= tile.minimum_compute_capability && cc <= tile.maximum_compute_capability) return op;
  }
  return nullptr;
}

bool same_group(GemmDescription const &a, GemmDescription const &b) {
  return a.tile_description.minimum_compute_capability == b.tile_description.minimum_compute_capability &&
         max_alignment(a) == max_alignment(b);
}

/// Time of a stream-K tile's share relative to the same share of a whole tile. From the H200
/// (docs/NOTES.md, 2026-11-29 s4), bf16 TN 128x128 ping-pong stream-K vs persistent, each
/// interleaved with cuBLAS: the split share cost 1.0-1.9x (two runs of 4096x14336x4096 and
/// 8192^3 disagreed by 3-6%), 1.4x at 4096^3 and 2048^3, and at 8192^3 in four layouts and at
/// 16384^3 stream-K measured 1-6% slower; it won only with few tiles and a long K (128 x 4096 x
/// 14336: 32 tiles, +2.5%). ncu at 2048^3: the consumers wait for TMA data (L2 throughput 67%
/// vs 56%), not for the partial sums. 2.0 keeps the persistent kernels for every large shape
/// measured and leaves stream-K the problems with far fewer tiles than SMs. Re-measured with the
/// 32-bit walker (s6, 15 shapes, 3 passes): stream-K won 1.5% at 8192^3 and 4096x14336x4096 but
/// lost 1.6% at 8192x8192x28672, 1.0% at 8192x28672x8192 and 0.5% at 16384^3; no constant factor
/// (nor one per K) picks all of them right, and 2.0 is wrong only by the 1.5% wins, so it stays.
/// Refitted on the kTail split (s19, best-kernel search, two passes): the split share cost 1.46x
/// at 4096^3, 1.51x at 8192 x 1024 x 8192, 1.84x at 10240 x 512 x 5120 and 2.09x at 4096 x 4096
/// x 14336; 2.0 ranks all four as measured (stream-K only at 10240 x 512 x 5120, 0.86x cuBLAS
/// against the persistent kernel's 0.81x), any factor from 1.5 to 2.1 would too.
constexpr double kStreamKOverhead = 2.0;

/// And a fixed cost per split run, in k-blocks of the kernel's tile: the partial store, the flag
/// hand-off, the sum and the pipeline fill of a short run (1024^3, 16 k-blocks split into runs
/// of 8: stream-K took 1.25x the persistent kernel's time, where the per-share factor alone
/// predicts 1.0x).
constexpr double kStreamKFixedBlocks = 8.0;

namespace {

/// A tile's area over its efficiency on a CTA that runs `tiles_per_cta` tiles of a K-deep call.
/// A tile smaller than 128x128 feeds the tensor cores less well per unit of area: on the H200 the
/// 64x128 sm90 tile ran at 0.73-0.88 of the 128x128 tile's speed on large problems (docs/NOTES.md),
/// so its time per tile counts as area / 0.8. A 64-row sm90 ping-pong tile alone on its CTA is one
/// warpgroup's single m64 wgmma chain with no second consumer beside it: half the tensor rate
/// (H200: 64x128 at 4096 x 200 x 11008 took 63.8 us for 30 us of MMA, s12; 64x64 at 128 x 4096 x
/// 14336 and 64x96 at 8192 x 96 x 8192 ran at 0.50-0.58 of the per-SM peak, s15), where the
/// mainloop dominates: at K = 1024 the fill and the epilogue do (64x128 alone per CTA was the
/// fastest tile at 1024^3, s15); the rule holds from K = 8192, the shortest K measured.
double effective_area(GemmDescription const &desc, double tiles_per_cta, double k, bool split_k_slices = false) {
  auto const &tile = desc.tile_description.threadblock_shape;
  auto const &warps = desc.tile_description.warp_count;   // sm90: consumer warpgroups per tile
  double const area = double(tile.m()) * tile.n();
  bool const sm90 = desc.tile_description.minimum_compute_capability >= 90;
  if (area >= 128.0 * 128.0) {
    // A ping-pong tile (one consumer warpgroup per tile) alone on its CTA: one warpgroup issues
    // every wgmma and the second consumer, which would overlap the fill and the epilogue, has no
    // tile. H200, the split-K slices of 256 x 512 x 32768 (docs/NOTES.md, s18 - s20): 128x128
    // ping-pong x16 (128 CTAs, K = 2048 each) ran 0.70-0.78x cuBLAS where 64x128 x8 ran
    // 0.84-0.90x; with the reduction's estimate taken out, its kernel ran at ~0.65 of the rate
    // this model gives a 128x128 tile (so did the whole 128 x 14336 x 4096: 33 us for 22 us of
    // MMA). Counted for the split-K slices only: on whole problems the alternatives the model
    // would then rank first were measured slower (128 x 14336 x 4096: the lone 128x128 tile was
    // the best default-set kernel, 0.975x; 64x128, two per CTA, ranked first with the factor).
    bool const lone_ping_pong = sm90 && split_k_slices && warps.m() * warps.n() == 1 && tiles_per_cta <= 1.0;
    return lone_ping_pong ? area / 0.65 : area;
  }
  // (a cooperative 64-row tile splits N between two warpgroups: two chains, warp_count.n() == 2)
  bool const single_chain = sm90 && tile.m() < 128 && warps.n() < 2 && tiles_per_cta <= 1.0 && k >= 8192;
  return single_chain ? area / 0.5 : area / 0.8;
}

/// A persistent launch of more tiles than SMs hands each CTA whole tiles in a fixed order, so at
/// the HBM-bound end its last, partial wave of tiles streams on a fraction of the CTAs and the
/// launch ends with the CTAs that got one tile more: ceil(T / S) / (T / S) of the time the
/// unique bytes need. A TMA-only stream of a K-major bf16 weight on the H200 (s37, docs/NOTES.md:
/// 64-row boxes, 20 stages, whole 64-row bands round-robin against every CTA taking an equal
/// contiguous share of the bands' k-blocks) took 1.12-1.15x as long with whole bands at 1.7 and
/// 3.4 waves (this factor: 1.18), 1.39x at 1.3 waves (1.53), 1.02x at 0.97 (1.0). The stream-K
/// launches split the partial wave (Sm90StreamKScheduler) and pay no such factor. Nor do the
/// split-K route's slices (split_k.h): the route's picks stay as s28 measured them, since no
/// long-K row was timed with this term.
double static_wave_factor(GemmDescription const &desc, GemmCall const &call, double tiles, int sms) {
  if (desc.tile_description.tile_scheduler == TileSchedulerType::kStreamK || call.split_k_slices || tiles <= sms) {
    return 1.0;
  }
  double const waves = tiles / sms;
  return std::ceil(waves) / waves;
}

/// The fraction of the tiles' rows (A's M extent and B's N extent) inside an m x n problem
/// covered by m_tiles x n_tiles tiles: TMA boxes spend copy-engine time on the rows past M or N.
double useful_fraction(double m, double n, double m_tiles, double n_tiles, gemm::GemmCoord const &tile) {
  return (m / m_tiles + n / n_tiles) / double(tile.m() + tile.n());
}

}  // namespace

double wave_cost(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  auto const &tile = desc.tile_description.threadblock_shape;
  double const m_tiles = std::ceil(double(call.m) / tile.m());
  double const n_tiles = std::ceil(double(call.n) / tile.n());
  double const tiles = m_tiles * n_tiles * double(call.batch_count);
  double waves = sm_count > 0 ? std::ceil(tiles / sm_count) : 1.0;
  if (desc.tile_description.tile_scheduler == TileSchedulerType::kStreamK && sm_count > 0 && tiles < double(1 << 30)) {
    // The kernel's own split (Sm90StreamKScheduler): whole waves, then the split tiles' share
    // per CTA, which costs kStreamKOverhead for the partial sums' round trip through memory.
    auto const split = cutlass::gemm::kernel::Sm90StreamKScheduler::make(
        int(m_tiles), int(n_tiles), int(call.batch_count), int(std::ceil(double(call.k) / tile.k())), sm_count,
        cutlass::gemm::kernel::stream_k_split(), cutlass::gemm::kernel::stream_k_max_splits());
    if (split.sk_tiles > 0) {
      waves = double(split.dp_tiles()) / split.grid + kStreamKOverhead * double(split.sk_tiles) / split.grid +
              kStreamKFixedBlocks / split.tiles.k_tiles;
    }
  }
  return waves * effective_area(desc, std::ceil(tiles / std::max(sm_count, 1)), double(call.k), call.split_k_slices);
}

namespace {

/// Device constants of the cost model: the H200 (kDefaultSmCount SMs), measured (docs/NOTES.md).
/// HBM bandwidth a device-to-device copy reaches, bytes per microsecond (4.3 TB/s).
constexpr double kHbmBytesPerUs = 4.3e6;
/// What one CTA of a TMA kernel (sm90 family) streams into shared memory (bytes / us): each of its
/// tiles' A rows and B columns over the whole K, re-reads included (a tile re-reads what its
/// neighbours along M or N read; rows past the problem count too, TMA spends the time zero-filling
/// them). Fitted on the H200 (s11, docs/NOTES.md: every sm90 bf16 TN tile on the 33 TN shapes of
/// the suite): 85-99 GB/s per CTA; at 4096 x 200 x 11008 the 64x64 tile (two tiles per CTA) and
/// the 64x128 tile (one) both drew ~70 GB/s per CTA, 3-4x the HBM time of the weights. 100, not
/// the fit's middle: a 128x128 tile at the wgmma rate streams 94 GB/s, so at 90 this term
/// outweighed the compute of large problems and ranked the stream-K twin first there (measured
/// 1-6% slower); at 95-100 the persistent 128x128 tile keeps every large shape.
constexpr double kTiledCtaBytesPerUs = 100e3;
/// The same for the grouped kernels (estimated_grouped_time), lower: the grouped tile walk moves
/// from expert to expert, so its operand panels hit in L2 less often than a dense raster's. Fitted
/// on the H200 (s25, docs/NOTES.md) to the 128x128 grouped tile's three measured layers (8 x 14336
/// x 4096 skewed: 1564 us; 32 x 4096 x 7168 sparse: 1021 us; one expert of 8192 tokens: 1402 us);
/// at 80 the model gives 1494 / 872 / 1442, and it ranks the cooperative 256x128 tile (a quarter
/// fewer bytes per flop) first on the sparse layer, where it ran 885 us; at 100 it ranked the 128x128
/// tile first there (746 against 785 us).
constexpr double kGroupedCtaBytesPerUs = 80e3;
/// The same for the cp.async kernels (sm80 family), which run about two CTAs per SM: the 64x64
/// tile drew 2.9-3.2 TB/s from 216-344 tiles and 2.2 TB/s from 128 (2026-12-01 selection check).
constexpr double kCpAsyncCtaBytesPerUs = 12.5e3;
constexpr int kCpAsyncCtasPerSm = 2;
/// The fraction of kHbmBytesPerUs the bandwidth kernels reach (GEMV, skinny). The skinny
/// kernels reach 0.71-0.77 of it on the H200 (s12, s26). 0.85 (s13-s26) kept them on the 8- and
/// 16-token rows, where the sm90 64x32 tile ran 0-19% faster; 0.72 (s27, H200, two runs each):
/// 13824 x 16 x 5120 0.83 -> 0.93-1.00x cuBLAS, 5120 x 16 x 13824 0.84 -> 1.00, 14336 x 16 x 4096
/// 0.84-0.85 -> 0.97-0.98, the 8-token rows +0-4%. 16 x 8192 x 8192 runs the swap-AB 16x64 tile
/// (ranked at 31 us) when it is built; without it, a fraction under 0.70 would move that call
/// from the skinny kernel to the 64x128 tile (0.79 vs 0.87x cuBLAS in s12).
constexpr double kGemvBandwidthFraction = 0.90;
constexpr double kSkinnyBandwidthFraction = 0.72;

/// Dense multiply-add rate of one SM, flops per microsecond: sm90 wgmma 16-bit 790 TFLOP/s over
/// 132 SMs (cuBLAS's burst rate, measured), tf32 half that, 8-bit twice; sm80 mma.sync 0.57 of
/// wgmma (measured: 0.54-0.57x cuBLAS); CUDA cores f32 49 TFLOP/s (SIMT measured), f64 half.
double sm_rate(GemmDescription const &d) {
  constexpr double kWgmma16 = 790e6 / 132;
  NumericTypeID const a = d.A.element;
  int const bits = sizeof_bits(a);
  double const per_type = a == NumericTypeID::kTF32 ? 0.5 : bits == 8 ? 2.0 : 1.0;
  auto const &tile = d.tile_description;
  if (tile.math_instruction.opcode_class == OpcodeClassID::kTensorOp) {
    return kWgmma16 * per_type * (tile.minimum_compute_capability >= 90 ? 1.0 : 0.57);
  }
  double const simt = 49e6 / 132;
  return a == NumericTypeID::kF64 ? simt / 2 : simt;
}

/// Whether a problem's epilogue reads C: device scalars, or a host beta (of `scalar` type) other
/// than zero (as gemm_reads_c for a call).
bool reads_c(GemmUniversalArguments const &p, NumericTypeID scalar) {
  return p.pointer_mode == ScalarPointerMode::kDevice || (p.beta && !host_scalar_equals(scalar, p.beta, 0));
}

/// Bytes a call must move at least: A, B and D once, C when it is read.
double call_bytes(GemmCall const &c) {
  double const batch = double(c.batch_count);
  double const ab = double(c.m) * c.k * bytes_of(c.element_A) + double(c.k) * c.n * bytes_of(c.element_B);
  bool const reads_c = c.beta != nullptr && gemm_reads_c(c);   // (selection tests pass no scalars)
  double const cd = double(c.m) * c.n * bytes_of(c.element_D) * (reads_c ? 2.0 : 1.0);
  return batch * (ab + cd);
}

}  // namespace

double estimated_time(GemmDescription const &desc, GemmCall const &call, int sm_count) {
  int const sms = sm_count > 0 ? sm_count : kDefaultSmCount;
  double const bytes = call_bytes(call);
  double const rate = sm_rate(desc) * sms;
  if (desc.max_small_extent > 0) {
    // a bandwidth kernel: its tensor cores compute the small side padded to the kernel's width
    double const big = double(std::max(call.m, call.n));
    double const width = double(desc.max_small_extent);
    double const flops = 2.0 * big * width * double(call.k) * double(call.batch_count);
    double const fraction = desc.max_small_extent == 1 ? kGemvBandwidthFraction : kSkinnyBandwidthFraction;
    return std::max(flops / rate, bytes / (kHbmBytesPerUs * fraction));
  }
  auto const &tile = desc.tile_description.threadblock_shape;
  double compute = wave_cost(desc, call, sms) * 2.0 * double(call.k) / (rate / sms);
  // tensor-op kernels below 16-byte vectors issue 2-8x the loads (the sm80 align1 kernel ran at
  // 0.10x cuBLAS where align8 ran at 0.56x)
  if (desc.tile_description.math_instruction.opcode_class == OpcodeClassID::kTensorOp) {
    double const vector_bytes = double(max_alignment(desc)) * bytes_of(desc.A.element);
    if (vector_bytes < 16) compute /= 0.1 + 0.9 * vector_bytes / 16;
  }
  double const m_tiles = std::ceil(double(call.m) / tile.m()), n_tiles = std::ceil(double(call.n) / tile.n());
  double const tiles = m_tiles * n_tiles * double(call.batch_count);
  if (desc.tile_description.minimum_compute_capability < 90) {
    // cp.async (sm80): predicated loads skip the rows past M or N; about two CTAs per SM
    double const busy = std::min(tiles, double(kCpAsyncCtasPerSm * sms));
    return std::max(compute, bytes / std::min(kHbmBytesPerUs, busy * kCpAsyncCtaBytesPerUs));
  }
  // TMA (sm90): the unique bytes at HBM bandwidth, over the fraction of a tile's rows (of A's M and
  // B's N extent) inside the problem; and the busiest CTA's tile bytes at one CTA's streaming rate
  double const useful = useful_fraction(double(call.m), double(call.n), m_tiles, n_tiles, tile);
  double const k_blocks = std::ceil(double(call.k) / tile.k());
  double blocks_per_cta = std::ceil(tiles / sms) * k_blocks;   // persistent: whole tiles
  if (desc.tile_description.tile_scheduler == TileSchedulerType::kStreamK && tiles < double(1 << 30)) {
    auto const split = cutlass::gemm::kernel::Sm90StreamKScheduler::make(
        int(m_tiles), int(n_tiles), int(call.batch_count), int(k_blocks), sms, cutlass::gemm::kernel::stream_k_split(),
        cutlass::gemm::kernel::stream_k_max_splits());
    if (split.sk_tiles > 0) {
      blocks_per_cta = std::ceil(double(split.dp_tiles()) / split.grid) * k_blocks + split.run_blocks +
                       (split.run_extra > 0 ? 1 : 0);
    }
  }
  double const cta_bytes = blocks_per_cta * double(tile.m() + tile.n()) * tile.k() * double(bytes_of(desc.A.element));
  double const memory = std::max({bytes / useful / kHbmBytesPerUs * static_wave_factor(desc, call, tiles, sms),
                                  cta_bytes / kTiledCtaBytesPerUs, raster_hbm_bytes(desc, call, sms) / kHbmBytesPerUs});
  return std::max(compute, memory);
}

bool grouped_tile_fits(GemmDescription const &desc, GemmUniversalArguments const *problems, int count) {
  int const tile_n = desc.tile_description.threadblock_shape.n();
  if (tile_n >= 64) return true;
  for (int i = 0; i < count; ++i) {
    if (problems[i].problem_size.n() > 2 * tile_n) return false;
  }
  return true;
}

double estimated_grouped_time(GemmDescription const &desc, GemmUniversalArguments const *problems, int count,
                              int sm_count) {
  int const sms = sm_count > 0 ? sm_count : kDefaultSmCount;
  auto const &tile = desc.tile_description.threadblock_shape;
  double const element = double(bytes_of(desc.A.element));
  double tiles = 0, tile_blocks = 0, hbm_bytes = 0;
  for (int i = 0; i < count; ++i) {
    double const m = problems[i].problem_size.m(), n = problems[i].problem_size.n(), k = problems[i].problem_size.k();
    if (m <= 0 || n <= 0 || k <= 0) continue;
    double const m_tiles = std::ceil(m / tile.m()), n_tiles = std::ceil(n / tile.n());
    tiles += m_tiles * n_tiles;
    tile_blocks += m_tiles * n_tiles * std::ceil(k / tile.k());
    double const useful = useful_fraction(m, n, m_tiles, n_tiles, tile);
    double const outputs = reads_c(problems[i], desc.element_epilogue) ? 2.0 : 1.0;
    hbm_bytes += ((m + n) * k * element + outputs * m * n * double(bytes_of(desc.D.element))) / useful;
  }
  if (tiles == 0) return 0;
  double const tiles_per_cta = std::ceil(tiles / sms), blocks_per_tile = tile_blocks / tiles;
  double const cta_blocks = tiles_per_cta * blocks_per_tile;
  double const compute =
      cta_blocks * 2.0 * effective_area(desc, tiles_per_cta, blocks_per_tile * tile.k()) * tile.k() / sm_rate(desc);
  double const cta_bytes = cta_blocks * double(tile.m() + tile.n()) * tile.k() * element;
  return std::max(compute, std::max(hbm_bytes / kHbmBytesPerUs, cta_bytes / kGroupedCtaBytesPerUs));
}

double grouped_rank(GemmDescription const &desc, GemmUniversalArguments const *problems, int count, int sm_count) {
  static char const *const preferred = [] {
    char const *v = std::getenv("CUTLASS_LIB_GROUPED_KERNEL");
    return v && *v ? v : nullptr;
  }();
  double const time = estimated_grouped_time(desc, problems, count, sm_count);
  constexpr double kAfterThePreferred = 1e9;   // us: behind every preferred kernel's estimate
  return preferred != nullptr && std::strstr(desc.name, preferred) == nullptr ? time + kAfterThePreferred : time;
}

double estimated_staging_time(size_t bytes, int copies) {
  constexpr double kCopyLaunchUs = 2.0;
  return copies * kCopyLaunchUs + 2.0 * double(bytes) / kHbmBytesPerUs;
}

/// Where the split-K route is considered (measured on the H200, s10, docs/NOTES.md): with at most
/// 8 output tiles of 128x128 and K >= 16384 it ran 0.65x cuBLAS where stream-K ran 0.31-0.63x;
/// at 32 tiles (128 x 4096 x 14336) it lost to stream-K (0.74x against 0.87x), and the stream-K
/// kernels on the slices ran 1.4x slower than stream-K on the whole problem, so the slices run
/// whole tiles only. Re-measured in s28 with the reduction fixed (split_k.cu), the route forced on
/// 64-tile shapes (4096 x 200 x 11008, 8192 x 200 x 8192, 128 x 4096 x 14336, 4096 x 256 x 11008,
/// 64 x 8192 x 8192, 4096 x 64 x 14336; 2-8 slices of the 128x208, 64x128 and 128x128 tiles) lost
/// to the best direct kernel on every one (e.g. 4096 x 200 x 11008: 0.82x against stream-K's
/// 0.89x), and a gate opened to them let the model take it where it lost 10-25%.
constexpr double kSplitKMaxTiles = 8;
constexpr int64_t kSplitKMinK = 16384;

namespace {

/// Measurement aid: CUTLASS_LIB_SPLIT_K_ROUTE=<splits>[:<name part>] makes choose_split_k take exactly
/// that split count, whatever the estimates (and only slice kernels whose name contains the part),
/// wherever the route applies; unset (the default), the cost model chooses.
struct ForcedSplitK {
  int splits = 0;
  std::string name_part;
};

ForcedSplitK const &forced_split_k() {
  static ForcedSplitK const forced = [] {
    ForcedSplitK f;
    char const *v = std::getenv("CUTLASS_LIB_SPLIT_K_ROUTE");
    if (!v || !v[0]) return f;
    f.splits = std::atoi(v);
    if (char const *colon = std::strchr(v, ':')) f.name_part = colon + 1;
    return f;
  }();
  return forced;
}

/// The kernels that may run the split-K route's slices `sliced`: its types' kernels but the
/// stream-K ones (see kSplitKMaxTiles), those whose name contains `name_part` ("" for all), in
/// preference order.
GemmOperationVector slice_kernels(GemmCall const &sliced, char const *name_part) {
  GemmOperationVector kernels;
  GemmOperationVector const *all = Singleton::get().operation_table.find_gemm(functional_key(sliced));
  if (!all) return kernels;
  for (Operation const *op : *all) {
    if (gemm_description(op).tile_description.tile_scheduler != TileSchedulerType::kStreamK &&
        std::strstr(op->description().name, name_part)) {
      kernels.push_back(op);
    }
  }
  return kernels;
}

}  // namespace

bool choose_requested_split_k(GemmCall const &call, int cc, int sm_count, bool ask_kernel, void *workspace,
                              SplitKPlan *plan, Operation const **kernel, bool *any_for_device) {
  *any_for_device = false;
  bool const unfused = call.split_k_request == 1;   // one slice: the unfused epilogue route
  if (!split_k_applies(call, unfused) || !plan_split_k(call, call.split_k_request, workspace, plan)) return false;
  GemmOperationVector const candidates = slice_kernels(plan->sliced, "");
  *kernel = select_kernel(candidates, plan->sliced, cc, sm_count, ask_kernel, any_for_device);
  return *kernel != nullptr;
}

bool choose_split_k(GemmCall const &call, Operation const *direct, int cc, int sm_count, bool ask_kernel,
                    size_t workspace_limit, void *workspace, SplitKPlan *plan, Operation const **kernel) {
  int const sms = sm_count > 0 ? sm_count : kDefaultSmCount;
  double const tiles = std::ceil(double(call.m) / 128) * std::ceil(double(call.n) / 128);
  ForcedSplitK const &forced = forced_split_k();
  if (forced.splits > 1) {   // (one slice is the unfused epilogue route's, never forced)
    if (!split_k_applies(call) || !plan_split_k(call, forced.splits, workspace, plan)) return false;
    // the first named kernel that takes the slices (no fit rules: a few-token tile may run them)
    GemmUniversalConfiguration const configuration = configuration_of(plan->sliced);
    GemmUniversalArguments const arguments = arguments_of(plan->sliced);
    for (Operation const *op : slice_kernels(plan->sliced, forced.name_part.c_str())) {
      TileDescription const &tile = op->description().tile_description;
      if (cc < tile.minimum_compute_capability || cc > tile.maximum_compute_capability) continue;
      if (!ask_kernel || op->can_implement(configuration, arguments) == Status::kSuccess) {
        *kernel = op;
        return true;
      }
    }
    return false;
  }
  if (!split_k_applies(call) || call.k < kSplitKMinK || tiles > kSplitKMaxTiles) return false;
  bool const reads_c = gemm_reads_c(call);
  double best = estimated_time(gemm_description(direct), call, sm_count);
  bool found = false;
  GemmOperationVector candidates;   // the sliced call's kernels (slice_kernels), found once
  // Split counts up to one slice per SM: the cost model counts each slice kernel's own tiles
  // (a 64x128 tile runs twice the splits of a 128x128 tile on as many CTAs). The partials stay
  // within one wave of 128x128 f32 tiles (sms x 64 KB, 8.25 MiB on 132 SMs), the most the route
  // took before s20 (splits x 128x128 tiles <= SMs); with the slice kernel's own workspace they
  // fit a caller's fixed workspace (below), so the route never makes a call answer
  // WORKSPACE_TOO_SMALL: it runs the direct kernel instead.
  size_t const max_partials = size_t(sms) * 128 * 128 * sizeof(float);
  for (int splits = 2; splits <= 256 && splits <= sms; splits *= 2) {
    SplitKPlan candidate;
    if (!plan_split_k(call, splits, workspace, &candidate) || candidate.workspace_bytes > max_partials) continue;
    if (candidates.empty()) {
      candidates = slice_kernels(candidate.sliced, "");
      if (candidates.empty()) return false;
    }
    bool any = false;
    Operation const *op = select_kernel(candidates, candidate.sliced, cc, sm_count, ask_kernel, &any);
    if (!op) continue;
    size_t const slice_workspace =
        op->get_device_workspace_size(configuration_of(candidate.sliced), arguments_of(candidate.sliced));
    if (candidate.workspace_bytes + slice_workspace > workspace_limit) continue;
    double const output_bytes = double(call.m) * call.n * double(bytes_of(call.element_D)) * (reads_c ? 2 : 1);
    double const reduction = 2.0 + (double(candidate.workspace_bytes) + output_bytes) / kHbmBytesPerUs;
    double const time = estimated_time(gemm_description(op), candidate.sliced, sm_count) + reduction;
    if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   split-K x%d: %s estimated %.1f us (reduction %.1f) vs %.1f us\n", splits,
                   op->description().name, time, reduction, best);
    }
    if (time < best) {
      best = time;
      *plan = candidate;
      *kernel = op;
      found = true;
    }
  }
  return found;
}

Operation const *select_kernel(GemmOperationVector const &candidates, GemmCall const &call, int cc, int sm_count,
                               bool ask_kernel, bool *any_for_device) {
  *any_for_device = false;
  int const sms = sm_count > 0 ? sm_count : kDefaultSmCount;
  /// A fitting kernel with its estimate, computed once (the sort compares n log n times).
  struct Ranked {
    Operation const *op;
    double time;        ///< estimated_time
    double waves;       ///< wave_cost (tiled kernels; 0 for the bandwidth kernels)
    bool bandwidth;     ///< max_small_extent > 0
  };
  std::vector<Ranked> ranked;
  ranked.reserve(candidates.size());
  for (Operation const *op : candidates) {
    char const *why = "";
    GemmDescription const &desc = gemm_description(op);
    if (description_fits(desc, call, cc, &why)) {
      bool const bandwidth = desc.max_small_extent > 0;
      ranked.push_back({op, estimated_time(desc, call, sms), bandwidth ? 0.0 : wave_cost(desc, call, sms), bandwidth});
    } else if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   skip %s: %s\n", op->description().name, why);
    }
    *any_for_device = *any_for_device || std::strcmp(why, "compute capability") != 0;
  }
  // One ranking by estimated time; on a tie a tiled kernel before a bandwidth kernel, then the
  // smaller wave cost, then preference order (the sort is stable).
  std::stable_sort(ranked.begin(), ranked.end(), [](Ranked const &a, Ranked const &b) {
    if (a.time != b.time) return a.time < b.time;
    if (a.bandwidth != b.bandwidth) return !a.bandwidth;
    return a.waves < b.waves;
  });
  if (ranked.empty()) return nullptr;
  if (selection_log_enabled()) {
    for (Ranked const &r : ranked) {
      std::fprintf(stderr, "cutlass_lib:   rank %s: estimated %.1f us\n", r.op->description().name, r.time);
    }
  }
  if (!ask_kernel) return ranked.front().op;
  GemmUniversalConfiguration const configuration = configuration_of(call);
  GemmUniversalArguments const arguments = arguments_of(call);
  for (Ranked const &r : ranked) {
    Operation const *op = r.op;
    Status status = op->can_implement(configuration, arguments);
    if (status == Status::kSuccess) return op;
    if (selection_log_enabled()) {
      std::fprintf(stderr, "cutlass_lib:   skip %s: %s\n", op->description().name, cutlassGetStatusString(status));
    }
  }
  return nullptr;
}

}  // namespace library
}  // namespace cutlass
