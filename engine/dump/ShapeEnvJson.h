// Internal to engine/dump: the "shape_env" section of a dump - symbols (hint, range, sources),
// replacements, guards and specializations with their provenance - written and read back.
// While a dump's graphs are read, the env it declares is the one symbolic sizes ("s0*128")
// are parsed against (ShapeEnvScope).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "engine/dump/DumpValueReader.h"
#include "engine/symbolic/ShapeEnv.h"

namespace fathom::dumpread {

nlohmann::ordered_json shapeEnvJson(const sym::ShapeEnv& env);
// One line per symbol, guard and specialization, for diffable dumps.
std::string shapeEnvText(const sym::ShapeEnv& env, const std::string& indent);
std::shared_ptr<sym::ShapeEnv> readShapeEnv(const json& j, const Ptr& ptr);

// The env symbolic sizes are read against, for the lifetime of the scope (one per thread).
class ShapeEnvScope {
 public:
  explicit ShapeEnvScope(sym::ShapeEnv* env);
  ~ShapeEnvScope();
  ShapeEnvScope(const ShapeEnvScope&) = delete;
  ShapeEnvScope& operator=(const ShapeEnvScope&) = delete;
  static sym::ShapeEnv* current();

 private:
  sym::ShapeEnv* previous_;
};

// How a dump writes a SymInt: an integer, or its canonical expression ("s0*128"); one that
// replacements made constant ("s1 -> 128") as the integer it now is.
nlohmann::ordered_json symIntJson(const SymInt& s);
nlohmann::ordered_json symIntListJson(const SymIntList& l);

// A symbolic integer written as text ("s0*128"), parsed against the current scope's env.
SymInt readSymbolicInt(const std::string& text, const Ptr& ptr, const char* what);

}  // namespace fathom::dumpread
