// The recorded-vs-real rows of one node (see FakeRealTable.h).
#include "engine/interp/FakeRealTable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/graph/GraphPrinter.h"

namespace fathom {
namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

// `interp` null: nothing is bound yet ("?" for every symbol).
std::optional<int64_t> evaluate(const DebugInterpreter* interp, const SymInt& s) {
  if (!s.isSymbolic()) return s.hint();
  return interp ? interp->eval(s) : std::nullopt;
}

std::string listText(const SymIntList& list, bool evaluated, const DebugInterpreter* interp) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) {
    std::string item = list[i].str();
    if (evaluated) {
      auto v = evaluate(interp, list[i]);
      item = v ? std::to_string(*v) : "?";
    }
    out += (i ? ", " : "") + item;
  }
  return out + "]";
}

bool anySymbolic(const SymIntList& list) {
  return std::any_of(list.begin(), list.end(), [](const SymInt& s) { return s.isSymbolic(); });
}

FakeRealRow listRow(const DebugInterpreter* interp, std::string field, const SymIntList* recorded, const IntList* real) {
  FakeRealRow r;
  r.field = std::move(field);
  r.recorded = recorded ? listText(*recorded, false, interp) : "-";
  r.evaluated = recorded ? listText(*recorded, true, interp) : "-";
  r.symbolic = recorded && anySymbolic(*recorded);
  r.real = real ? intListText(*real) : "-";
  return r;
}

FakeRealRow symIntRow(const DebugInterpreter* interp, std::string field, const SymInt* recorded, std::string real) {
  FakeRealRow r;
  r.field = std::move(field);
  r.recorded = recorded ? recorded->str() : "-";
  auto v = recorded ? evaluate(interp, *recorded) : std::nullopt;
  r.evaluated = recorded ? (v ? std::to_string(*v) : std::string("?")) : "-";
  r.symbolic = recorded && recorded->isSymbolic();
  r.real = std::move(real);
  return r;
}

}  // namespace

std::string ValueSummary::str() const {
  if (count == 0) return "empty";
  if (finite == 0) return "no finite element  nan " + std::to_string(nan) + "  inf " + std::to_string(inf);
  return "min " + number(min) + "  max " + number(max) + "  mean " + number(mean) + "  nan " + std::to_string(nan) +
         "  inf " + std::to_string(inf);
}

std::string ValueSummary::firstText() const {
  std::string out;
  for (size_t i = 0; i < first.size(); ++i) out += (i ? ", " : "") + number(first[i]);
  if (static_cast<int64_t>(first.size()) < count) out += first.empty() ? "..." : ", ...";
  return out;
}

ValueSummary summarizeValues(const Tensor& t, size_t firstCount) {
  ValueSummary s;
  s.count = t.numel();
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (int64_t i = 0; i < s.count; ++i) {
    const double x = t.atLinear(i);
    if (static_cast<size_t>(i) < firstCount) s.first.push_back(x);
    if (std::isnan(x)) ++s.nan;
    else if (std::isinf(x)) ++s.inf;
    else lo = std::min(lo, x), hi = std::max(hi, x), sum += x, ++s.finite;
  }
  if (s.finite > 0) s.min = lo, s.max = hi, s.mean = sum / static_cast<double>(s.finite);
  return s;
}

std::vector<FakeRealRow> fakeRealRows(const DebugInterpreter& interp, const Node& node, const Value& recorded,
                                      const Value& real, const std::string& label) {
  auto reported = [&](const std::string& field) {
    for (const auto& m : interp.mismatches())
      if (m.node == node.name && m.field == label + field) return true;
    return false;
  };
  std::vector<FakeRealRow> rows;
  if (auto* list = real.tryAs<ValueList>()) {
    auto* recList = recorded.tryAs<ValueList>();
    for (size_t i = 0; i < list->size(); ++i) {
      auto inner = fakeRealRows(interp, node, recList && i < recList->size() ? (*recList)[i] : Value{}, (*list)[i],
                                label + "[" + std::to_string(i) + "] ");
      rows.insert(rows.end(), inner.begin(), inner.end());
    }
    return rows;
  }
  auto* t = real.tryAs<Tensor>();
  if (!t || !t->defined()) {
    FakeRealRow r = symIntRow(&interp, label + "value", recorded.tryAs<SymInt>(), formatValue(real));
    if (!recorded.isInt() && !recorded.isNone()) r.recorded = r.evaluated = recorded.kindName();
    r.mismatch = reported("value") || reported("kind");
    return {r};
  }
  const TensorMeta* m = recorded.tryAs<TensorMeta>();
  FakeRealRow dtype;
  dtype.field = label + "dtype";
  dtype.recorded = dtype.evaluated = m ? std::string(dtypeName(m->dtype)) : "-";
  dtype.real = std::string(dtypeName(t->dtype()));
  rows.push_back(dtype);
  rows.push_back(listRow(&interp, label + "sizes", m ? &m->sizes : nullptr, &t->sizes()));
  rows.push_back(listRow(&interp, label + "strides", m ? &m->strides : nullptr, &t->strides()));
  rows.push_back(symIntRow(&interp, label + "storage offset", m ? &m->storageOffset : nullptr, std::to_string(t->storageOffset())));
  const char* fields[] = {"dtype", "sizes", "strides", "storage_offset"};
  for (size_t i = 0; i < rows.size(); ++i) rows[i].mismatch = reported(fields[i]);
  if (reported("alias")) rows.push_back({label + "alias", "(see the mismatch)", "(see the mismatch)", false, "", true});
  FakeRealRow values;
  values.field = label + "values";
  values.real = summarizeValues(*t).str();
  values.mismatch = reported("values");
  rows.push_back(values);
  return rows;
}


std::vector<FakeRealRow> recordedRows(const DebugInterpreter* interp, const Value& recorded, const std::string& label) {
  if (auto* list = recorded.tryAs<ValueList>()) {
    std::vector<FakeRealRow> rows;
    for (size_t i = 0; i < list->size(); ++i) {
      auto inner = recordedRows(interp, (*list)[i], label + "[" + std::to_string(i) + "] ");
      rows.insert(rows.end(), inner.begin(), inner.end());
    }
    return rows;
  }
  if (auto* m = recorded.tryAs<TensorMeta>()) {
    FakeRealRow dtype;
    dtype.field = label + "dtype";
    dtype.recorded = dtype.evaluated = std::string(dtypeName(m->dtype));
    dtype.real = "-";
    return {dtype, listRow(interp, label + "sizes", &m->sizes, nullptr), listRow(interp, label + "strides", &m->strides, nullptr),
            symIntRow(interp, label + "storage offset", &m->storageOffset, "-")};
  }
  if (auto* s = recorded.tryAs<SymInt>()) return {symIntRow(interp, label + "value", s, "-")};
  return {};
}

}  // namespace fathom
