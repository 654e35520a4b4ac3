// An example input of a graph: the layout of one placeholder and where its values come from.
// Part of the data model (a Dump holds them per graph, a ShapeTrace makes them, the interpreter
// draws or reads their values); engine/dump only reads and writes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/tensor/TensorMeta.h"

namespace fathom {

// Where an input's values live when they are in a side file: `name` as the dump writes it
// (relative to the dump's folder), `path` as this process opens it, and the byte offset.
struct DataFile {
  std::string name;
  std::string path;
  uint64_t offset = 0;
  bool present() const { return !name.empty(); }
};

// One example input: its layout, and one of a seed (values drawn deterministically: floats from
// N(0, 1), or uniform in `range`; integers uniform in [range.first, range.second), default
// [0, 10); bools fair coins), inline values in row-major logical order, or the same values as
// raw little-endian bytes in a side file next to the dump (what the PyTorch exporter writes for
// anything larger than a few elements).
//
// A SymInt placeholder (torch 2.x's dynamic graphs take sizes as inputs) has an `integer` instead,
// and no layout: `meta` is unused.
struct ExampleInput {
  std::string name;
  TensorMeta meta;
  std::optional<uint64_t> seed;
  std::optional<std::pair<double, double>> range;
  std::vector<double> data;
  DataFile file;  // set when the values are in a side file
  std::optional<int64_t> integer;  // the value of a SymInt placeholder
};

}  // namespace fathom
