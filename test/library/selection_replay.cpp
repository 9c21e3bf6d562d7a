/// @file test/library/selection_replay.cpp
/// The handle's kernel selection replayed on the host over a recorded `cutlass_bench --details`
/// file: for each problem of the file, the route the cost model takes (choose_route on an sm_90
/// context of --sm-count SMs, kernels judged by their descriptions, so no device is needed)
/// beside the times the GPU measured for every kernel of that run's best-kernel search. A way to
/// try a cost-model change (gemm_selection.cpp) against recorded measurements before spending
/// device time on it.
///
///   cutlass_selection_replay <details file> [--sm-count=132] [--cc=90]
///
/// One line per problem: the model's kernel (split-K routes: "x<splits>" and the slices' kernel,
/// whose time is the handle's row when the recorded handle took the same route), its measured time,
/// the fastest kernel measured and the ratio best / model (1.000: the model took the best), and a
/// note where the recorded handle ran another kernel than the replayed model picks. Then
/// the problems where the model's kernel ran more than 3% slower than the best (issue 20's bar).
/// The build must hold the recorded kernels (the default set for a default-set run). Limits:
/// plain epilogues, K-major packing not replayed (MN-major 8- and 32-bit operands), problems
/// whose model kernel was not timed are reported as such. Exit status: 0, 2 on a usage error or
/// an unreadable file.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cutlass/library/singleton.h"
#include "cutlass/library/util.h"
#include "gemm_call.h"
#include "gemm_route.h"

namespace {

using namespace cutlass::library;

/// One problem of a details file: its header's fields and the measured rows.
struct RecordedProblem {
  std::string header;
  std::map<std::string, std::string> fields;   ///< m, n, k, batch_count, A, B, C, alpha, beta
  std::map<std::string, double> kernel_ms;     ///< every "cutlass" row that passed, by kernel name
  std::string handle_kernel;                   ///< the kernel of the "handle" row
  double handle_ms = 0;
};

/// The header field `name`, or `otherwise` when the header has none.
std::string field(RecordedProblem const &p, char const *name, char const *otherwise = "") {
  auto const it = p.fields.find(name);
  return it == p.fields.end() ? otherwise : it->second;
}

/// "bf16:row" -> type and layout; false when either is unknown.
bool tensor_of(std::string const &text, NumericTypeID *type, LayoutTypeID *layout) {
  size_t const colon = text.find(':');
  if (colon == std::string::npos) return false;
  *type = numeric_type_from_string(text.substr(0, colon).c_str());
  *layout = layout_type_from_string(text.substr(colon + 1).c_str());
  return *type != NumericTypeID::kInvalid && *layout != LayoutTypeID::kInvalid;
}

std::vector<RecordedProblem> read_details(std::istream &in) {
  std::vector<RecordedProblem> problems;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Problem ", 0) == 0) {
      RecordedProblem p;
      p.header = line;
      std::istringstream words(line);
      std::string word;
      while (words >> word) {
        size_t const eq = word.find('=');
        if (eq != std::string::npos) p.fields[word.substr(0, eq)] = word.substr(eq + 1);
      }
      problems.push_back(p);
      continue;
    }
    if (problems.empty()) continue;
    // "  <provider> <status> <disposition> <runtime_ms> ... <operation>"
    std::istringstream words(line);
    std::string provider, status, disposition, runtime;
    if (!(words >> provider >> status >> disposition >> runtime)) continue;
    std::string operation, word;
    while (words >> word) operation = word;
    if (status != "success" || (disposition != "passed" && disposition != "-" && disposition != "not_verified")) {
      continue;
    }
    double const ms = std::atof(runtime.c_str());
    if (!(ms > 0)) continue;
    if (provider == "cutlass") problems.back().kernel_ms[operation] = ms;
    if (provider == "handle") {
      problems.back().handle_kernel = operation;
      problems.back().handle_ms = ms;
    }
  }
  return problems;
}

/// The call the profiler's handle row makes for `p` (gemm_profiler.cpp profile_handle): packed
/// leading dimensions, 256-byte aligned made-up addresses (never dereferenced), host alpha / beta.
bool call_of(RecordedProblem const &p, float const *alpha, float const *beta, GemmCall *call) {
  GemmCall c;
  LayoutTypeID layout_C = LayoutTypeID::kInvalid;
  if (!field(p, "epilogue").empty() ||   // plain calls only
      !tensor_of(field(p, "A"), &c.element_A, &c.layout_A) || !tensor_of(field(p, "B"), &c.element_B, &c.layout_B) ||
      !tensor_of(field(p, "C"), &c.element_C, &layout_C)) {
    return false;
  }
  c.element_D = c.element_C;
  c.layout_C = c.layout_D = layout_C;
  c.m = std::atoll(field(p, "m", "0").c_str());
  c.n = std::atoll(field(p, "n", "0").c_str());
  c.k = std::atoll(field(p, "k", "0").c_str());
  c.batch_count = std::atoll(field(p, "batch_count", "1").c_str());
  if (c.m <= 0 || c.n <= 0 || c.k <= 0 || c.batch_count <= 0) return false;
  // the profiler's handle_compute_types: s8 accumulates in s32 (s32 scalars for an s32 C), f64 in
  // f64; the replay passes float scalars, so it takes the calls with f32 scalars only
  bool const s8 = c.element_A == NumericTypeID::kS8;
  c.element_compute = s8 ? NumericTypeID::kS32 : NumericTypeID::kF32;
  c.element_scalar = s8 && c.element_C == NumericTypeID::kS32 ? NumericTypeID::kS32 : NumericTypeID::kF32;
  if (c.element_scalar != NumericTypeID::kF32 || c.element_A == NumericTypeID::kF64) return false;
  c.alpha = alpha;
  c.beta = beta;
  c.lda = c.layout_A == LayoutTypeID::kRowMajor ? c.k : c.m;
  c.ldb = c.layout_B == LayoutTypeID::kColumnMajor ? c.k : c.n;
  c.ldc = c.ldd = layout_C == LayoutTypeID::kColumnMajor ? c.m : c.n;
  c.A = reinterpret_cast<void const *>(uintptr_t(1) << 32);
  c.B = reinterpret_cast<void const *>(uintptr_t(2) << 32);
  c.C = reinterpret_cast<void const *>(uintptr_t(3) << 32);
  c.D = reinterpret_cast<void *>(uintptr_t(4) << 32);
  if (c.batch_count > 1) {
    c.mode = cutlass::gemm::GemmUniversalMode::kBatched;
    c.batch_stride_A = c.m * c.k;
    c.batch_stride_B = c.k * c.n;
    c.batch_stride_C = c.batch_stride_D = c.m * c.n;
  }
  *call = c;
  return true;
}

int usage(char const *why) {
  std::fprintf(stderr, "cutlass_selection_replay: %s\nusage: cutlass_selection_replay <details file> [--sm-count=N] [--cc=N]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  char const *path = nullptr;
  int sm_count = 132, cc = 90;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--sm-count=", 11) == 0) {
      sm_count = std::atoi(argv[i] + 11);
    } else if (std::strncmp(argv[i], "--cc=", 5) == 0) {
      cc = std::atoi(argv[i] + 5);
    } else if (!path && argv[i][0] != '-') {
      path = argv[i];
    } else {
      return usage((std::string("unknown argument ") + argv[i]).c_str());
    }
  }
  if (!path || sm_count <= 0 || cc <= 0) return usage("a details file, --sm-count > 0 and --cc > 0 are needed");
  std::ifstream file(path);
  if (!file) return usage((std::string("cannot read ") + path).c_str());
  std::vector<RecordedProblem> const problems = read_details(file);
  if (problems.empty()) return usage("the file has no 'Problem' header (a cutlass_bench --details file?)");

  GemmContext context;
  context.compute_capability = cc;
  context.sm_count = sm_count;
  int replayed = 0;
  std::vector<std::string> misses;
  std::printf("%-44s %-14s %10s %10s %7s  %s\n", "problem", "model", "model_ms", "best_ms", "ratio", "best kernel");
  for (RecordedProblem const &p : problems) {
    std::string const shape =
        field(p, "m", "?") + "x" + field(p, "n", "?") + "x" + field(p, "k", "?") + " " + field(p, "A") + " " + field(p, "B");
    float const alpha = float(std::atof(field(p, "alpha", "1").c_str()));
    float const beta = float(std::atof(field(p, "beta", "0").c_str()));
    GemmCall call;
    if (!call_of(p, &alpha, &beta, &call)) {
      std::printf("%-44s not replayed (types, layouts or sizes this replay does not take)\n", shape.c_str());
      continue;
    }
    GemmCall const column_major = to_column_major_output(call);
    GemmOperationVector const *candidates = Singleton::get().operation_table.find_gemm(functional_key(column_major));
    bool any = false;
    Route const route = choose_route(column_major, candidates, nullptr, context, &any, /*ask_kernels=*/false);
    if (!route.kernel) {
      std::printf("%-44s no kernel of this build fits\n", shape.c_str());
      continue;
    }
    std::string const name = route.kernel->description().name;
    bool const direct = route.splits == 0 && !route.staged;
    std::string const model = route.splits > 0 ? "x" + std::to_string(route.splits) + " slices"
                              : route.staged   ? "packed"
                                               : "direct";
    // A routed call (split-K slices, packed copies) was timed only as the recorded handle's row,
    // and only when the handle ran something other than a kernel the search timed whole: the
    // handle's time counts for the model's route when both are routes on the same kernel.
    bool const handle_routed = !p.handle_kernel.empty() && !p.kernel_ms.count(p.handle_kernel);
    double model_ms = 0;
    if (direct && p.kernel_ms.count(name)) {
      model_ms = p.kernel_ms.at(name);
    } else if (!direct && handle_routed && name == p.handle_kernel) {
      model_ms = p.handle_ms;
    }
    std::string best_name;
    double best_ms = 0;
    for (auto const &[kernel, ms] : p.kernel_ms) {
      if (best_ms == 0 || ms < best_ms) best_ms = ms, best_name = kernel;
    }
    if (handle_routed && (best_ms == 0 || p.handle_ms < best_ms)) {   // a route is a candidate too
      best_ms = p.handle_ms;
      best_name = "(the recorded handle's route on) " + p.handle_kernel;
    }
    if (best_ms == 0) {
      std::printf("%-44s no kernel was timed in the recorded run\n", shape.c_str());
      continue;
    }
    if (model_ms == 0) {
      std::printf("%-44s %-14s %10s %10.4f %7s  %s (the model's %s was not timed)\n", shape.c_str(), model.c_str(), "-",
                  best_ms, "-", best_name.c_str(), name.c_str());
      continue;
    }
    ++replayed;
    double const ratio = best_ms / model_ms;
    std::printf("%-44s %-14s %10.4f %10.4f %7.3f  %s%s%s%s\n", shape.c_str(), model.c_str(), model_ms, best_ms, ratio,
                best_name.c_str(), best_name.find(name) != std::string::npos ? "" : "  model: ",
                best_name.find(name) != std::string::npos ? "" : name.c_str(),
                name == p.handle_kernel ? "" : "  (the recorded handle ran another kernel)");
    if (ratio < 0.97) misses.push_back(shape + ": " + std::to_string(ratio));
  }
  std::printf("\n%d of %zu problems replayed; the model's kernel more than 3%% behind the best measured on %zu:\n",
              replayed, problems.size(), misses.size());
  for (std::string const &m : misses) std::printf("  %s\n", m.c_str());
  return 0;
}
