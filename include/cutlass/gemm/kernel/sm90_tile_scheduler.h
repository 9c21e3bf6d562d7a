/// @file cutlass/gemm/kernel/sm90_tile_scheduler.h
/// Persistent tile order, in units of cluster tiles: a cluster of ClusterM x ClusterN CTAs covers
/// ClusterM x ClusterN neighbouring output tiles, and the CTA of rank (rank_m, rank_n) in it takes
/// tile (cluster_row * ClusterM + rank_m, cluster_column * ClusterN + rank_n). So the CTAs of a
/// cluster that share a row of tiles (same M) share A and those that share a column (same N)
/// share B in every iteration. Cluster c (of C launched) walks units c, c + C, ...; every CTA of
/// a cluster walks the same units, so all run the same number of tiles and k-blocks.
/// Units are numbered batch-major; within a batch they go in bands of tile rows, M fastest inside
/// a band (RasterOrder::kAlongN), or of tile columns, N fastest inside a band (kAlongM), so the
/// ~132 tiles in flight at once share a few A row panels and B column panels in L2 (grouped
/// raster order, as CUTLASS's swizzled scheduler and Triton's grouped ordering). The order and
/// the band's width (swizzle_size tiles, default kGroupM) are run-time arguments (set_raster):
/// the handle keeps the default (no order rule has held on the H200: src/library/gemm_raster.h);
/// an Operation's caller or the profiler may set another. With 1x1 clusters a unit is a tile and
/// the order is the plain grouped one.
/// At the M or N edge a partial cluster keeps its shape: a CTA whose tile lies wholly outside the
/// problem still runs it (its loads are zero-filled, its stores clipped by TMA), because its
/// peers need its share of the multicast loads and its barrier arrivals.
///
/// Both schedulers hand out work the same way: a Walker per CTA (cluster); next() fills a
/// Sm90WorkUnit (an output tile's place in the order and the k-blocks of it to accumulate) until
/// the CTA's work is done, and locate() adds the tile's coordinates (only the consumer that
/// computes the unit needs them: a ping-pong consumer skips the other's units by their
/// k-blocks). Sm90TileScheduler gives whole tiles (k-blocks [0, k_tiles)), also by index
/// (unit()); Sm90StreamKScheduler gives whole tiles for the full waves and then a contiguous run
/// of k-blocks of the remaining tiles.
#pragma once

#include <cstdlib>
#include <cstring>

#include "cutlass/cutlass.h"
#include "cutlass/gemm/gemm_arguments.h"

namespace cutlass {
namespace gemm {
namespace kernel {

/// One piece of a CTA's work: the unit (cluster tile) `unit` of the order, its k-blocks
/// [k_begin, k_end) (in tile-K units), and after locate() its output tile (m_block, n_block, l),
/// in CTA tiles. sk_tile >= 0 marks a stream-K tile (its index among the split tiles) whose
/// k-blocks several CTAs share; -1 a tile this CTA computes whole.
struct Sm90WorkUnit {
  int unit = 0;
  int k_begin = 0, k_end = 0;
  int sk_tile = -1;
  int m_block = 0, n_block = 0, l = 0;
  CUTLASS_HOST_DEVICE int k_blocks() const { return k_end - k_begin; }

  /// Unit `u` of the order, computed whole (k-blocks [0, k_tiles)) by one CTA.
  CUTLASS_HOST_DEVICE void set_whole(int u, int k_tiles) {
    unit = u;
    k_begin = 0;
    k_end = k_tiles;
    sk_tile = -1;
  }
};

template <int ClusterM = 1, int ClusterN = 1>
struct Sm90TileScheduler {
  static_assert(ClusterM >= 1 && ClusterN >= 1, "Sm90TileScheduler: cluster extents must be positive");
  static constexpr int kGroupM = 8;   ///< tile rows per group
  static constexpr int kGroupRows = kGroupM / ClusterM > 0 ? kGroupM / ClusterM : 1;   ///< in cluster rows

  int m_tiles = 0, n_tiles = 0, batch = 0;   ///< in CTA tiles
  int k_tiles = 0;                           ///< k-blocks per tile
  int walkers = 1;                           ///< clusters launched (set at launch)
  int band = kGroupRows;                     ///< units per raster band (rows; columns when along_m)
  bool along_m = false;                      ///< RasterOrder::kAlongM: bands of unit columns

  /// The order of `order` (kHeuristic: kAlongN) in bands of `swizzle_size` tiles (0: kGroupM),
  /// counted in clusters along the band's side (at least one). Host; raster_is_valid() holds.
  void set_raster(RasterOrder order, int swizzle_size) {
    along_m = order == RasterOrder::kAlongM;
    int const tiles = swizzle_size > 0 ? swizzle_size : kGroupM;
    int const units = tiles / (along_m ? ClusterN : ClusterM);
    band = units > 0 ? units : 1;
  }

  CUTLASS_HOST_DEVICE int cluster_rows() const { return (m_tiles + ClusterM - 1) / ClusterM; }
  CUTLASS_HOST_DEVICE int cluster_columns() const { return (n_tiles + ClusterN - 1) / ClusterN; }

  /// Work units (cluster tiles) of the whole problem.
  CUTLASS_HOST_DEVICE int unit_count() const { return cluster_rows() * cluster_columns() * batch; }

  /// The (m, n, batch) tile coordinates of unit `u` for the CTA of rank (rank_m, rank_n) in its
  /// cluster. m_block may reach past the last tile row (likewise n_block) at a partial cluster.
  CUTLASS_HOST_DEVICE void coordinates(int u, int rank_m, int rank_n, int &m_block, int &n_block, int &l) const {
    int const rows = cluster_rows();
    int const columns = cluster_columns();
    int const per_batch = rows * columns;
    l = u / per_batch;
    int row, column;
    if (along_m) {
      raster(u - l * per_batch, columns, rows, band, column, row);
    } else {
      raster(u - l * per_batch, rows, columns, band, row, column);
    }
    m_block = row * ClusterM + rank_m;
    n_block = column * ClusterN + rank_n;
  }

  /// The (row, column) of unit `r` of a rows x columns grid walked in the grouped raster order:
  /// bands of `band_rows` rows, one after another, the row fastest inside a band (kAlongM calls
  /// it with the grid transposed).
  CUTLASS_HOST_DEVICE static void raster(int r, int rows, int columns, int band_rows, int &row, int &column) {
    int const band_units = band_rows * columns;
    int const band = r / band_units;
    int const first_row = band * band_rows;
    int const height = (rows - first_row) < band_rows ? (rows - first_row) : band_rows;
    r -= band * band_units;
    row = first_row + r % height;
    column = r / height;
  }

  /// Cluster `walker_index` walks units walker_index, walker_index + walkers, ... (unsigned: the
  /// sum of a unit index and the stride stays below 2^32).
  struct Walker {
    uint32_t unit;
  };
  CUTLASS_HOST_DEVICE Walker walker(int walker_index) const { return Walker{uint32_t(walker_index)}; }

  /// The walker's next unit, whole (k-blocks [0, k_tiles)); false when it has none left.
  CUTLASS_HOST_DEVICE bool next(Walker &w, Sm90WorkUnit &work) const {
    if (w.unit >= uint32_t(unit_count())) return false;
    work.set_whole(int(w.unit), k_tiles);
    w.unit += uint32_t(walkers);
    return true;
  }

  /// Unit j of walker `walker_index` (its j-th, in walking order) without walking: false past the
  /// walker's last unit.
  CUTLASS_HOST_DEVICE bool unit(int walker_index, int j, Sm90WorkUnit &work) const {
    int64_t const u = int64_t(walker_index) + int64_t(j) * walkers;
    if (u >= unit_count()) return false;
    work.set_whole(int(u), k_tiles);
    return true;
  }

  /// The output tile of `work` for the CTA of rank (rank_m, rank_n) in its cluster.
  CUTLASS_HOST_DEVICE void locate(Sm90WorkUnit &work, int rank_m, int rank_n) const {
    coordinates(work.unit, rank_m, rank_n, work.m_block, work.n_block, work.l);
  }
};

/// One group of a grouped launch as its scheduler reads it: the units (cluster tiles) of the
/// groups before it and of it (`end`, a running sum), its rows of units (tile rows / ClusterM,
/// rounded up), the k-blocks of each of its tiles and its N; its columns of units (tile columns /
/// ClusterN, rounded up) are (end - previous end) / m_tiles. A group with M or N == 0 owns no
/// units (m_tiles may be 0).
struct Sm90GroupTiles {
  int end = 0;
  int m_tiles = 0;
  int k_tiles = 0;
  int n = 0;   ///< the group's columns: a tile column past most of them may run a narrower wgmma
};

/// Grouped GEMM (1x1 clusters; 2x1: the CTAs of a cluster take neighbouring tile rows of one
/// group and one tile column, so they share the column's B tile, multicast; or 1x2: neighbouring
/// tile columns of one tile row, sharing its A tile. At a group's last, partial cluster row or
/// column a CTA may run a tile wholly past its M or N, as Sm90TileScheduler's partial clusters
/// do): G problems, each with its own M, N and K, walked as one persistent
/// order. Units (cluster tiles) are numbered group-major: group g owns units
/// [groups[g - 1].end, groups[g].end), in the grouped raster order inside the group (raster(),
/// bands of band_rows unit rows: ClusterM x band_rows tile rows); next() and unit() give a
/// unit's group as its l and the group's k-blocks as its run (so units differ in length: the
/// kernel's consumers walk every unit of the CTA, carrying the stage ring's position, as
/// stream-K's do), and locate() its tile in the group (the kernel then reads that group's
/// operands; each group's own tensors have one batch).
/// Cluster c walks units c, c + walkers, ... as the plain scheduler does. `groups` is an array of
/// group_count Sm90GroupTiles the walker reads (device memory in a launch, host memory in host
/// code), and so is the unit count (the last group's end): a launch whose group sizes live in
/// device memory (GemmSm90Grouped::run_contiguous) writes the array in a kernel before it, and the host
/// never learns the count. A walker finds each unit's group from the last one's (its units and
/// their groups only increase): the same group or the next in one read each, else by binary
/// search over the groups after it (a walker's units are `walkers` apart, which may cross many
/// small groups); unit() by binary search over all the ends.
template <int ClusterM = 1, int ClusterN = 1>
struct Sm90GroupedTileScheduler : Sm90TileScheduler<1, 1> {
  static_assert((ClusterM == 1 || ClusterM == 2) && (ClusterN == 1 || ClusterN == 2) && ClusterM * ClusterN <= 2,
                "Sm90GroupedTileScheduler: 1x1, 2x1 or 1x2 clusters");
  Sm90GroupTiles const *groups = nullptr;
  int group_count = 0;
  int band_rows = 2;   ///< raster band height inside each group, in unit rows (raster()); make() sets it
  /// Whether a tile that holds at most a quarter or half of its columns inside its group's N runs
  /// a wgmma of that width (GemmSm90::tile_columns): CUTLASS_LIB_GROUPED_NARROW=1, read once
  /// (host); off by default until measured on a GPU. make() sets it.
  bool narrow_tails = false;

  /// The band height of grouped launches: 2 unit rows (tile rows on 1x1 clusters; measured
  /// there only), or CUTLASS_LIB_GROUPED_BAND (an integer from 1 to kMaxBandRows; a measurement
  /// aid) read once (host). The bound keeps raster()'s band_rows x columns within an int: a
  /// group has at most 2^31 / 16 tile columns (N < 2^31, the narrowest grouped tile 16 wide). H200, s20 (bf16 MoE layers of cutlass_bench
  /// --grouped, host-sized / contiguous calls, us): 8 x 14336 x 4096 at 8192 skewed tokens
  /// 1654 / 1561 with bands of 2 rows against 1726 / 1670 with 8 (the dense scheduler's kGroupM)
  /// and 1771 / 1730 with 1; 32 x 4096 x 7168 sparse 1020 / 1038 against 1103 / 1108;
  /// 64 x 2048 x 7168 sparse 498 / 527 against 504 / 533 (docs/NOTES.md).
  static int grouped_band_rows() {
    static int const rows = env_int_in("CUTLASS_LIB_GROUPED_BAND", 1, kMaxBandRows, 2);
    return rows;
  }
  static constexpr int kMaxBandRows = 15;

  /// The schedule of `count` groups of tiles given by `groups` (read by the walkers, not here).
  static Sm90GroupedTileScheduler make(Sm90GroupTiles const *groups, int count) {
    Sm90GroupedTileScheduler s;
    s.n_tiles = 1;
    s.batch = 1;
    s.groups = groups;
    s.group_count = count;
    s.band_rows = grouped_band_rows();
    s.narrow_tails = grouped_narrow_tails();
    return s;
  }

  /// CUTLASS_LIB_GROUPED_NARROW (0 or 1; a measurement aid, default 0) read once (host).
  static bool grouped_narrow_tails() {
    static bool const narrow = env_int_in("CUTLASS_LIB_GROUPED_NARROW", 0, 1, 0) == 1;
    return narrow;
  }

  /// Units of all groups (the base's m_tiles is not used).
  CUTLASS_HOST_DEVICE int unit_count() const { return group_count > 0 ? groups[group_count - 1].end : 0; }

  /// A walker also holds the group of its last unit.
  struct Walker {
    uint32_t unit;
    int group;
  };
  CUTLASS_HOST_DEVICE Walker walker(int walker_index) const { return Walker{uint32_t(walker_index), 0}; }

  /// The walker's next unit, whole (its group's k-blocks), its group as work.l; false when it has
  /// none left.
  CUTLASS_HOST_DEVICE bool next(Walker &w, Sm90WorkUnit &work) const {
    if (w.unit >= uint32_t(unit_count())) return false;
    if (uint32_t(groups[w.group].end) <= w.unit) {   // past the walker's group (ends never decrease)
      ++w.group;
      if (uint32_t(groups[w.group].end) <= w.unit) w.group = group_of(int(w.unit), w.group + 1);
    }
    set_unit(int(w.unit), w.group, work);
    w.unit += uint32_t(walkers);
    return true;
  }

  /// As Sm90TileScheduler::unit (the group found by binary search).
  CUTLASS_HOST_DEVICE bool unit(int walker_index, int j, Sm90WorkUnit &work) const {
    int64_t const u = int64_t(walker_index) + int64_t(j) * walkers;
    if (u >= unit_count()) return false;
    set_unit(int(u), group_of(int(u)), work);
    return true;
  }

  /// The group owning unit `u` (0 <= u < unit_count()): the first whose end is past u, searched
  /// from group `first` on (the owner is not before it).
  CUTLASS_HOST_DEVICE int group_of(int u, int first = 0) const {
    int lo = first, hi = group_count - 1;
    while (lo < hi) {
      int const mid = (lo + hi) / 2;
      if (groups[mid].end > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /// The output tile of `work` (from next() or unit(): its group is work.l) in its group, for the
  /// CTA of rank (rank_m, rank_n) in its cluster.
  CUTLASS_HOST_DEVICE void locate(Sm90WorkUnit &work, int rank_m, int rank_n) const {
    int const g = work.l;
    int const begin = g > 0 ? groups[g - 1].end : 0;
    int const rows = groups[g].m_tiles;
    int row, column;
    raster(work.unit - begin, rows, (groups[g].end - begin) / rows, band_rows, row, column);
    work.m_block = row * ClusterM + rank_m;
    work.n_block = column * ClusterN + rank_n;
  }

  /// Unit `u` of group `g`, whole.
  CUTLASS_HOST_DEVICE void set_unit(int u, int g, Sm90WorkUnit &work) const {
    work.set_whole(u, groups[g].k_tiles);
    work.l = g;
  }
};

/// Which tiles a stream-K launch splits when there are at least as many tiles as SMs
/// (Sm90StreamKScheduler::make):
///  - kTail (the default): the partial wave only (T mod S tiles), when each CTA's run still has
///    at least kMinKBlocks k-blocks and at least 1 / kMaxSplits of a tile (so a tile's owner adds
///    at most about kMaxSplits partials, as when all tiles are split); otherwise kWaveAndTail.
///  - kWaveAndTail: one whole wave and the partial one (S + T mod S tiles), CUTLASS's
///    "data-parallel + one stream-K wave" hybrid.
/// On the H200 (s18, ncu at 10240 x 512 x 5120, 128x128) the kWaveAndTail split read twice the
/// DRAM bytes of the persistent kernel (DRAM throughput 64% against 33%, L2 hit rate 56% against
/// 63%): 188 split tiles in flight at once, each A panel's four tiles at unrelated k offsets, so
/// L2 loses the panel between them. kTail splits 56 tiles there: 132 MB read instead of 278 MB,
/// 82.8 us instead of 96.5 (s19, ncu); in the best-kernel search (bf16 TN, two passes each) the
/// stream-K kernels ran 1.13-1.23x faster on the four suite shapes with 2.4-8 waves and a partial
/// wave, within 0-5% elsewhere (docs/NOTES.md, s19).
enum class Sm90StreamKSplit { kWaveAndTail, kTail };

/// The split policy of this process: kTail, or kWaveAndTail when the environment variable
/// CUTLASS_LIB_STREAM_K is "wave" (a measurement aid, for A/B runs against the older split); read
/// once (host). The kernels and the cost model both read it, so the model ranks the stream-K
/// kernels by the split they run.
inline Sm90StreamKSplit stream_k_split() {
  static Sm90StreamKSplit const split = [] {
    char const *v = std::getenv("CUTLASS_LIB_STREAM_K");
    return v && std::strcmp(v, "wave") == 0 ? Sm90StreamKSplit::kWaveAndTail : Sm90StreamKSplit::kTail;
  }();
  return split;
}

/// Stream-K, data-parallel + stream-K hybrid (1x1 clusters). With T tiles on S SMs:
///  - T a multiple of S, or fewer than 2 * kMinKBlocks k-blocks per tile: every tile whole
///    (as Sm90TileScheduler), on min(T, S) CTAs;
///  - T >= 2S: the first T - (S + T % S) tiles (whole waves) whole, CTA c taking tiles
///    c, c + S, ...; the k-blocks of the last S + T % S tiles (one whole wave and the partial
///    one) split into S equal contiguous runs, one per CTA (each at least one tile's worth);
///    with Sm90StreamKSplit::kTail (T > S, the default) only the last T % S tiles are split;
///  - S <= T < 2S, or T < S: all T tiles split, over min(S, T * kMaxSplits,
///    T * k_tiles / kMinKBlocks) CTAs.
/// The k-block runs are contiguous in (tile, k-block) order, so a CTA's run is either a piece
/// strictly inside one tile (it stores a partial sum), or at most: the end of one tile
/// (k_begin > 0: it stores a partial sum), whole tiles, the start of another (k_begin = 0,
/// k_end < k_tiles: it adds the partial sums of the later CTAs that share the tile, then runs the
/// epilogue). Each CTA stores at most one partial (its run's first unit) and does so before its
/// run's last unit, which is the only one that may wait on other CTAs: a CTA waits only on later
/// CTAs, which never wait before storing, so no cycle forms while the CTAs are dispatched in
/// order (the grid is at most one CTA per SM).
/// The split depends on the SM count: get_workspace_size, initialize_workspace and run of one
/// problem must see the same device.
struct Sm90StreamKScheduler {
  static constexpr int kMinKBlocks = 4;   ///< least k-blocks per CTA's stream-K run
  /// When all tiles are split, at most T * kMaxSplits CTAs: about 8 per tile on average (a tile
  /// whose k-blocks straddle the runs' boundaries may be shared by one or two more).
  static constexpr int kMaxSplits = 8;

  Sm90TileScheduler<1, 1> tiles;   ///< tile order and k_tiles
  int grid = 0;                    ///< CTAs launched
  int sk_tiles = 0;                ///< the last sk_tiles tiles of the order are split
  /// The split k-blocks (sk_tiles * k_tiles <= INT32_MAX) are run_blocks * grid + run_extra.
  int run_blocks = 0, run_extra = 0;

  CUTLASS_HOST_DEVICE int unit_count() const { return tiles.unit_count(); }
  CUTLASS_HOST_DEVICE int dp_tiles() const { return tiles.unit_count() - sk_tiles; }

  /// The decomposition of an m_tiles x n_tiles x batch problem of k_tiles k-blocks per tile on
  /// sm_count SMs, splitting the tiles `split` says (with T >= S; see Sm90StreamKSplit).
  static Sm90StreamKScheduler make(int m_tiles, int n_tiles, int batch, int k_tiles, int sm_count,
                                   Sm90StreamKSplit split = Sm90StreamKSplit::kTail, int max_splits = kMaxSplits) {
    Sm90StreamKScheduler s;
    s.tiles.m_tiles = m_tiles;
    s.tiles.n_tiles = n_tiles;
    s.tiles.batch = batch;
    s.tiles.k_tiles = k_tiles;
    int const t = s.tiles.unit_count();
    int const sms = sm_count > 0 ? sm_count : 1;
    int sk_tiles = t >= 2 * sms ? sms + t % sms : t;
    int64_t const tail_blocks = int64_t(t % sms) * k_tiles;   // the partial wave's k-blocks
    if (split == Sm90StreamKSplit::kTail && t > sms && tail_blocks >= int64_t(sms) * kMinKBlocks &&
        tail_blocks * kMaxSplits >= int64_t(sms) * k_tiles) {
      sk_tiles = t % sms;   // whole waves, then only the partial wave's k-blocks over every SM
    }
    int64_t const blocks = int64_t(sk_tiles) * k_tiles;
    // Whole tiles only: nothing to balance, too few k-blocks to split, or more split k-blocks
    // than the 32-bit run arithmetic holds (K beyond ~2^31 / 263 k-blocks: no real GEMM).
    if (t % sms == 0 || k_tiles < 2 * kMinKBlocks || blocks > int64_t(INT32_MAX)) {
      s.grid = t < sms ? t : sms;
      return s;
    }
    s.sk_tiles = sk_tiles;
    int64_t grid = sms;
    if (t < sms) {
      int64_t const by_splits = int64_t(t) * max_splits;
      int64_t const by_blocks = blocks / kMinKBlocks;
      grid = grid < by_splits ? grid : by_splits;
      grid = grid < by_blocks ? grid : by_blocks;
    }
    s.grid = int(grid);
    s.run_blocks = int(blocks / grid);
    s.run_extra = int(blocks % grid);
    return s;
  }

  /// Bytes of device workspace: a flag per (CTA, consumer part), then a partial tile of
  /// `tile_elements` f32 per CTA, read as float4 (the workspace must be 16-byte aligned; the
  /// flags take a multiple of 256 bytes). 0 when nothing is split.
  CUTLASS_HOST_DEVICE int64_t flag_bytes() const { return (int64_t(grid) * 2 * 4 + 255) / 256 * 256; }
  CUTLASS_HOST_DEVICE int64_t workspace_bytes(int tile_elements) const {
    return sk_tiles == 0 ? 0 : flag_bytes() + int64_t(grid) * tile_elements * 4;
  }

  /// The first split k-block (counting the split tiles' k-blocks in order) of CTA `cta`'s run,
  /// floor(cta * total / grid) (runs differ by at most one k-block); sk_begin(grid) is the total.
  /// All 32-bit (run_extra * cta < grid^2): the consumers walk next to their accumulators, where
  /// 64-bit walker state and 64-bit division (a call) cost registers the mainloop needs
  /// (docs/NOTES.md, s5).
  CUTLASS_HOST_DEVICE int sk_begin(int cta) const { return run_blocks * cta + run_extra * cta / grid; }

  struct Walker {
    uint32_t unit;   ///< next whole tile (unsigned, as Sm90TileScheduler::Walker)
    int block;       ///< next split k-block
    int end;         ///< end of this CTA's split k-blocks
  };
  CUTLASS_HOST_DEVICE Walker walker(int cta) const {
    return Walker{uint32_t(cta), sk_begin(cta), sk_begin(cta + 1)};
  }

  CUTLASS_HOST_DEVICE bool next(Walker &w, Sm90WorkUnit &work) const {
    if (w.unit < uint32_t(dp_tiles())) {
      work.set_whole(int(w.unit), tiles.k_tiles);
      w.unit += uint32_t(grid);
      return true;
    }
    if (w.block >= w.end) return false;
    int const k_tiles = tiles.k_tiles;
    int const tile = w.block / k_tiles;
    int const k_begin = w.block - tile * k_tiles;
    int const left = w.end - w.block;
    int const k_end = left < k_tiles - k_begin ? k_begin + left : k_tiles;
    work.unit = dp_tiles() + tile;
    work.k_begin = k_begin;
    work.k_end = k_end;
    work.sk_tile = tile;
    w.block += k_end - k_begin;
    return true;
  }

  CUTLASS_HOST_DEVICE void locate(Sm90WorkUnit &work, int, int) const {
    tiles.coordinates(work.unit, 0, 0, work.m_block, work.n_block, work.l);
  }

  /// A unit that stores its partial sum for an earlier CTA to add (and runs no epilogue).
  CUTLASS_HOST_DEVICE static bool stores_partial(Sm90WorkUnit const &work) {
    return work.sk_tile >= 0 && work.k_begin > 0;
  }

  /// For CTA `cta`'s unit `work`: the CTAs after it whose partial sums it adds are
  /// cta + 1 .. partials_end(cta, work) - 1 (none when it covers its tile to the end).
  CUTLASS_HOST_DEVICE int partials_end(int cta, Sm90WorkUnit const &work) const {
    if (work.sk_tile < 0 || work.k_begin > 0 || work.k_end == tiles.k_tiles) return cta + 1;
    int const tile_end = (work.sk_tile + 1) * tiles.k_tiles;
    int g = cta + 1;
    while (g < grid && sk_begin(g) < tile_end) ++g;
    return g;
  }
};

/// The most CTAs a tile is split over when all tiles are split (Sm90StreamKScheduler::make's
/// max_splits): kMaxSplits, or CUTLASS_LIB_STREAM_K_MAX_SPLITS (2 to 64; a measurement aid for
/// the long-K shapes, whose few tiles leave most SMs idle at 8); read once (host). The kernels and
/// the cost model both read it.
inline int stream_k_max_splits() {
  static int const splits =
      env_int_in("CUTLASS_LIB_STREAM_K_MAX_SPLITS", 2, 64, Sm90StreamKScheduler::kMaxSplits);
  return splits;
}

}  // namespace kernel
}  // namespace gemm
}  // namespace cutlass
