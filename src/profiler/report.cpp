/// @file src/profiler/report.cpp
#include "report.h"

#include <cmath>
#include <sstream>

namespace cutlass {
namespace profiler {

namespace {

/// A number with `precision` significant digits, or `missing` ("-" in the table, "" in the CSV)
/// when NaN.
std::string number(double value, int precision, char const *missing) {
  if (std::isnan(value)) return missing;
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", precision, value);
  return text;
}

/// A relative error: "3.10e-03".
std::string scientific(double value, char const *missing) {
  if (std::isnan(value)) return missing;
  char text[64];
  std::snprintf(text, sizeof(text), "%.2e", value);
  return text;
}

std::string fixed(double value, int decimals, char const *missing) {
  if (std::isnan(value)) return missing;
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value);
  return text;
}

std::string csv_field(std::string const &text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

bool counts_as_result(ResultRow const &row) {
  return !std::isnan(row.runtime_ms) &&
         (row.disposition == Disposition::kPassed || row.disposition == Disposition::kNotVerified);
}

}  // namespace

ResultRow::ResultRow() : runtime_ms(NAN), cublas_ms(NAN), cublaslt_ms(NAN), relative_error(NAN) {}

double ResultRow::gflops(GemmSpec const &spec) const { return spec.flops() / (runtime_ms * 1e6); }

double ResultRow::ratio_to_cublas() const { return cublas_ms / runtime_ms; }

double ResultRow::ratio_to_cublaslt() const { return cublaslt_ms / runtime_ms; }

void TableReport::problem_header(int index, GemmSpec const &spec, std::string const &memory_note) {
  if (!out_) return;
  std::fprintf(out_, "\nProblem %d: gemm %s\n", index, describe(spec).c_str());
  if (!memory_note.empty()) std::fprintf(out_, "  %s\n", memory_note.c_str());
  if (spec.epilogue.fused()) {
    // cublas_ms: cuBLAS GEMM + the separate epilogue kernel; lt_ms: cuBLASLt's fused epilogue.
    std::fprintf(out_, "  ratio = (cuBLAS GEMM + separate epilogue kernel) / ours; lt_ratio = cuBLASLt fused / ours\n");
    std::fprintf(out_, "  %-8s %-27s %-13s %11s %10s %11s %6s %11s %8s %10s  %s\n", "provider", "status",
                 "disposition", "runtime_ms", "GFLOP/s", "cublas_ms", "ratio", "lt_ms", "lt_ratio", "rel_error",
                 "operation");
  } else {
    std::fprintf(out_, "  %-8s %-27s %-13s %11s %10s %11s %6s %10s  %s\n", "provider", "status", "disposition",
                 "runtime_ms", "GFLOP/s", "cublas_ms", "ratio", "rel_error", "operation");
  }
  std::fflush(out_);
}

void TableReport::row(ResultRow const &row, GemmSpec const &spec) {
  if (!out_) return;
  if (spec.epilogue.fused()) {
    std::fprintf(out_, "  %-8s %-27s %-13s %11s %10s %11s %6s %11s %8s %10s  %s\n", row.provider.c_str(),
                 row.status.c_str(), to_string(row.disposition), fixed(row.runtime_ms, 4, "-").c_str(),
                 fixed(row.gflops(spec), 1, "-").c_str(), fixed(row.cublas_ms, 4, "-").c_str(),
                 fixed(row.ratio_to_cublas(), 3, "-").c_str(), fixed(row.cublaslt_ms, 4, "-").c_str(),
                 fixed(row.ratio_to_cublaslt(), 3, "-").c_str(), scientific(row.relative_error, "-").c_str(),
                 row.operation.c_str());
  } else {
    std::fprintf(out_, "  %-8s %-27s %-13s %11s %10s %11s %6s %10s  %s\n", row.provider.c_str(), row.status.c_str(),
                 to_string(row.disposition), fixed(row.runtime_ms, 4, "-").c_str(),
                 fixed(row.gflops(spec), 1, "-").c_str(), fixed(row.cublas_ms, 4, "-").c_str(),
                 fixed(row.ratio_to_cublas(), 3, "-").c_str(), scientific(row.relative_error, "-").c_str(),
                 row.operation.c_str());
  }
  if (row.disposition == Disposition::kFailed && !row.detail.empty()) {
    std::istringstream lines(row.detail);
    for (std::string line; std::getline(lines, line);) std::fprintf(out_, "      %s\n", line.c_str());
  }
  std::fflush(out_);
}

void TableReport::note(std::string const &text) {
  if (!out_) return;
  std::fprintf(out_, "  %s\n", text.c_str());
  std::fflush(out_);
}

void TableReport::summary(int index, GemmSpec const &spec, std::vector<ResultRow> const &rows) {
  if (!out_) return;
  ResultRow const *best = nullptr, *handle = nullptr, *cublas = nullptr, *cublaslt = nullptr;
  for (ResultRow const &row : rows) {
    if (!counts_as_result(row)) continue;
    if (row.provider == "cutlass" && (!best || row.runtime_ms < best->runtime_ms)) best = &row;
    if (row.provider == "handle") handle = &row;
    if (row.provider == "cublas") cublas = &row;
    if (row.provider == "cublaslt") cublaslt = &row;
  }
  bool const fused = spec.epilogue.fused();
  auto describe_row = [&](char const *label, ResultRow const *row) {
    if (!row) return std::string(label) + " -";
    std::string text = std::string(label) + " " + fixed(row->runtime_ms, 4, "-") + " ms " +
                       fixed(row->gflops(spec), 0, "-") + " GFLOP/s";
    if (row->provider != "cublas" && row->provider != "cublaslt") {
      text += " (" + fixed(row->ratio_to_cublas(), 3, "-") + (fused ? "x cuBLAS+unfused, " : "x cuBLAS) ");
      if (fused) text += fixed(row->ratio_to_cublaslt(), 3, "-") + "x cuBLASLt fused) ";
      text += row->operation;
    }
    return text;
  };
  if (fused) {
    std::fprintf(out_, "Summary of problem %d (epilogue %s): %s | %s | %s | %s\n", index,
                 spec.epilogue.variant.name().c_str(), describe_row("best cutlass", best).c_str(),
                 describe_row("handle", handle).c_str(), describe_row("cublas+unfused", cublas).c_str(),
                 describe_row("cublaslt", cublaslt).c_str());
  } else {
    std::fprintf(out_, "Summary of problem %d: %s | %s | %s\n", index, describe_row("best cutlass", best).c_str(),
                 describe_row("handle", handle).c_str(), describe_row("cublas", cublas).c_str());
  }
  std::fflush(out_);
}

bool CsvReport::open(std::string const &path, std::string *error) {
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) {
    *error = "cannot write '" + path + "'";
    return false;
  }
  file_ << "Problem,Provider,Operation,Disposition,Status,m,n,k,A,B,C,alpha,beta,batch_count,split_k_slices,"
           "cta_m,cta_n,cta_k,stages,warps_m,warps_n,warps_k,inst_m,inst_n,inst_k,min_cc,max_cc,"
           "Runtime,GFLOPs,ratio_to_cublas,relative_error,epilogue,bias_broadcast,cublas_ms,cublaslt_ms,"
           "ratio_to_cublaslt,scale_a,scale_b,accumulation\n";
  file_.flush();
  return true;
}

void CsvReport::row(ResultRow const &row, GemmSpec const &spec) {
  std::ostringstream line;
  line << row.problem << ',' << csv_field(row.provider) << ',' << csv_field(row.operation) << ','
       << to_string(row.disposition) << ',' << csv_field(row.status) << ',' << spec.m << ',' << spec.n << ','
       << spec.k << ',' << to_string(spec.A) << ',' << to_string(spec.B) << ',' << to_string(spec.C) << ','
       << number(spec.alpha, 17, "") << ',' << number(spec.beta, 17, "") << ',' << spec.batch_count << ','
       << spec.split_k_slices;
  if (row.kernel) {
    library::TileDescription const &t = row.kernel->tile_description;
    gemm::GemmCoord const &inst = t.math_instruction.instruction_shape;
    line << ',' << t.threadblock_shape.m() << ',' << t.threadblock_shape.n() << ',' << t.threadblock_shape.k() << ','
         << t.threadblock_stages << ',' << t.warp_count.m() << ',' << t.warp_count.n() << ',' << t.warp_count.k()
         << ',' << inst.m() << ',' << inst.n() << ',' << inst.k() << ',' << t.minimum_compute_capability << ','
         << t.maximum_compute_capability;
  } else {
    line << ",,,,,,,,,,,,";
  }
  line << ',' << number(row.runtime_ms, 6, "") << ',' << number(row.gflops(spec), 6, "") << ','
       << number(row.ratio_to_cublas(), 4, "") << ',' << scientific(row.relative_error, "") << ','
       << (spec.epilogue.fused() ? spec.epilogue.variant.name() : std::string("none")) << ','
       << (spec.epilogue.variant.bias ? to_string(spec.epilogue.bias_broadcast) : "") << ','
       << number(row.cublas_ms, 6, "") << ',' << number(row.cublaslt_ms, 6, "") << ','
       << number(row.ratio_to_cublaslt(), 4, "") << ',' << (spec.scaling.A ? to_string(*spec.scaling.A) : "") << ','
       << (spec.scaling.B ? to_string(*spec.scaling.B) : "") << ','
       << (spec.scaling.accumulation == library::AccumulationMode::kPrecise ? "precise" : "fast") << '\n';
  file_ << line.str();
  file_.flush();
}

}  // namespace profiler
}  // namespace cutlass
