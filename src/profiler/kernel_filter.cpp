/// @file src/profiler/kernel_filter.cpp
#include "kernel_filter.h"

#include <cctype>

namespace cutlass {
namespace profiler {

namespace {

std::string trimmed(std::string const &text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

bool is_all(std::string const &pattern) {
  if (pattern.size() != 3) return false;
  for (size_t i = 0; i < 3; ++i) {
    if (std::tolower(static_cast<unsigned char>(pattern[i])) != "all"[i]) return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> split_pattern_list(std::string const &pattern_list) {
  std::vector<std::string> patterns;
  size_t begin = 0;
  while (begin <= pattern_list.size()) {
    size_t end = pattern_list.find_first_of(",;", begin);
    if (end == std::string::npos) end = pattern_list.size();
    std::string pattern = trimmed(pattern_list.substr(begin, end - begin));
    if (!pattern.empty()) patterns.push_back(pattern);
    begin = end + 1;
  }
  return patterns;
}

bool pattern_matches(std::string const &name, std::string const &pattern) {
  size_t position = 0;
  size_t piece_begin = 0;
  while (true) {
    size_t piece_end = pattern.find('*', piece_begin);
    if (piece_end == std::string::npos) piece_end = pattern.size();
    size_t const found = name.find(pattern.substr(piece_begin, piece_end - piece_begin), position);
    if (found == std::string::npos) return false;
    position = found + (piece_end - piece_begin);
    if (piece_end == pattern.size()) return true;
    piece_begin = piece_end + 1;
  }
}

bool kernel_name_matches(std::string const &name, std::string const &pattern_list) {
  for (std::string const &pattern : split_pattern_list(pattern_list)) {
    if (is_all(pattern) || pattern_matches(name, pattern)) return true;
  }
  return false;
}

}  // namespace profiler
}  // namespace cutlass
