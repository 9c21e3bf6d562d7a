/// @file src/benchmark/shape_suite.cpp
#include "shape_suite.h"

#include <climits>
#include <fstream>

#include "options.h"

namespace cutlass {
namespace benchmark {

namespace {

using library::LayoutTypeID;

std::string trimmed(std::string const &text) {
  size_t const begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return std::string();
  return text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

std::vector<std::string> fields_of(std::string const &line) {
  std::vector<std::string> fields;
  size_t begin = 0;
  while (true) {
    size_t const end = line.find(',', begin);
    fields.push_back(trimmed(line.substr(begin, end == std::string::npos ? std::string::npos : end - begin)));
    if (end == std::string::npos) return fields;
    begin = end + 1;
  }
}

bool parse_extent(std::string const &text, int64_t *value) {
  std::string ignored;   // the caller names the bad field
  return profiler::parse_integer_in_range(text, 1, INT_MAX, value, &ignored);
}

bool parse_layout_letter(char letter, LayoutTypeID *layout) {
  if (letter != 'n' && letter != 't') return false;
  *layout = letter == 't' ? LayoutTypeID::kRowMajor : LayoutTypeID::kColumnMajor;
  return true;
}

}  // namespace

std::string Shape::extents() const { return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k); }

bool Shape::is_large() const { return m >= 1024 && n >= 1024 && k >= 1024; }

bool read_shapes(std::string const &path, std::vector<Shape> *shapes, std::string *error) {
  std::ifstream file(path);
  if (!file) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  std::vector<Shape> result;
  bool header_seen = false;
  int number = 0;
  for (std::string line; std::getline(file, line);) {
    ++number;
    std::string const text = trimmed(line);
    if (text.empty() || text[0] == '#') continue;
    std::string const where = path + ":" + std::to_string(number) + ": ";
    std::vector<std::string> const fields = fields_of(text);
    if (!header_seen) {
      if (fields != std::vector<std::string>{"group", "M", "N", "K", "layout"}) {
        *error = where + "expected the header 'group,M,N,K,layout', found '" + text + "'";
        return false;
      }
      header_seen = true;
      continue;
    }
    if (fields.size() != 5) {
      *error = where + "expected 5 fields (group,M,N,K,layout), found " + std::to_string(fields.size());
      return false;
    }
    Shape shape;
    shape.group = fields[0];
    shape.layout = fields[4];
    if (shape.group.empty()) {
      *error = where + "the group is empty";
      return false;
    }
    if (!parse_extent(fields[1], &shape.m) || !parse_extent(fields[2], &shape.n) ||
        !parse_extent(fields[3], &shape.k)) {
      *error = where + "M, N and K must be integers in [1, " + std::to_string(INT_MAX) + "]";
      return false;
    }
    if (shape.layout.size() != 2 || !parse_layout_letter(shape.layout[0], &shape.layout_A) ||
        !parse_layout_letter(shape.layout[1], &shape.layout_B)) {
      *error = where + "layout '" + shape.layout + "' is not one of nn, nt, tn, tt";
      return false;
    }
    result.push_back(shape);
  }
  if (!header_seen) {
    *error = path + ": no header line 'group,M,N,K,layout'";
    return false;
  }
  *shapes = result;
  return true;
}

}  // namespace benchmark
}  // namespace cutlass
