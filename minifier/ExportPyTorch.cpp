// `fathom export --as pytorch`: a repro as one Python script for torch 1.13 and 2.x. This file
// writes the graph part - the inputs with their values, the op names, and graph(call, ...) with
// one call(NAME, OP, *args, **kwargs) per node, arguments as the dump records them (positional
// and keyword, so PyTorch binds them itself) - and ExportPyTorchRuntime.cpp the checks after it.
//
// Which check the script runs by default follows the predicate: exception -> exception (any
// error: Fathom's regex is about Fathom's messages), crash -> crash, timeout:S -> timeout within
// S s, accuracy[:TOL] -> accuracy against a float64 rerun, mismatch -> meta (PyTorch's meta
// kernels against its real run), torch[:KIND] -> KIND; guard and script, which PyTorch cannot
// check, -> exception.
#include <cctype>
#include <filesystem>
#include <set>

#include "minifier/Export.h"
#include "minifier/Templates.h"
#include "minifier/ExportText.h"

namespace fathom::minify {
namespace {

const NumberSpelling kPython{"nan", "inf"};

const std::set<std::string> kKeywords = {
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield"};

// Keywords, and the names graph() uses itself.
std::set<std::string> reservedNames() {
  std::set<std::string> out = kKeywords;
  out.insert({"call", "torch", "nan", "inf", "float"});
  return out;
}

// `name=value`, or `**{"name": value}` for a name Python cannot take as a keyword argument.
std::string kwargText(const std::string& name, const std::string& value) {
  bool identifier = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) && !kKeywords.count(name);
  for (char ch : name) identifier &= std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  return identifier ? name + "=" + value : "**{" + quoted(name) + ": " + value + "}";
}

std::string defaultCheck(const ReproProperty& p) {
  if (p.kind == PredicateKind::Torch && !p.arg.empty()) return p.arg.substr(0, p.arg.find(':'));  // meta:OP checks meta
  return predicateKindInfo(p.kind).pytorchCheck;
}

std::string argText(const Value& v, const std::vector<std::string>& vars);

std::string listText(const ValueList& l, const std::vector<std::string>& vars) {
  std::string out = "[";
  for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + argText(l[i], vars);
  return out + "]";
}

// The Python expression for a graph argument (node references by their variable names).
std::string argText(const Value& v, const std::vector<std::string>& vars) {
  if (v.isNone()) return "None";
  if (auto* b = v.tryAs<bool>()) return *b ? "True" : "False";
  if (auto* i = v.tryAs<SymInt>()) return std::to_string(i->hint());
  if (auto* d = v.tryAs<double>()) return numberText(*d, kPython, true);
  if (auto* s = v.tryAs<std::string>()) return quoted(*s);
  if (auto* t = v.tryAs<DType>()) return "torch." + std::string(dtypeName(*t));
  if (auto* f = v.tryAs<MemoryFormat>()) return "torch." + std::string(memoryFormatName(*f));
  if (v.is<Layout>()) return "torch.strided";
  if (auto* dev = v.tryAs<Device>()) return "torch.device(" + quoted(dev->name) + ")";
  if (auto* r = v.tryAs<NodeRef>()) return vars.at(static_cast<size_t>(r->index));
  if (auto* l = v.tryAs<ValueList>()) return listText(*l, vars);
  return "None";  // tensors and fake tensors: graphs never store them as arguments
}

std::string intList(const SymIntList& list) {
  std::string out = "[";
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + std::to_string(list[i].hint());
  return out + "]";
}

std::string header(const ReproCase& c, const std::string& dataFile) {
  std::string out = "#!/usr/bin/env python3\n# Fathom repro: graph '" + oneLine(c.graphName) + "' of " + oneLine(c.source) +
                    " as PyTorch ops, written by\n# `fathom export --as pytorch`.\n#\n# Fathom saw: --predicate " +
                    oneLine(c.property.text) + " under backend '" + oneLine(c.backend) + "'";
  for (const auto& [k, v] : c.options) out += ", " + oneLine(k + "=" + v);
  out += ".\n# This script rebuilds the graph with torch.ops calls on the same input values and checks whether\n"
         "# PyTorch (torch 1.13 or 2.x, CPU) shows the failure too. Run: python3 SCRIPT [--check KIND]\n"
         "#   exception  the graph raises an error (--match REGEX: only one whose message matches)\n"
         "#   meta       an op's meta kernel, on device=\"meta\" copies of its real inputs, gives other sizes,\n"
         "#              strides (of dimensions longer than 1), storage offset or dtype than its real run\n"
         "#   accuracy   a floating output's rmse against a float64 rerun is more than twice that of the\n"
         "#              rerun's result rounded to the output's dtype, + tol / 10 (--tol): Fathom's accuracy\n"
         "#              rule, PyTorch's own, with the correctly rounded result standing in for eager\n"
         "#   crash      the graph, run in a child process, dies by a signal\n"
         "#   timeout    the graph, run in a child process, does not finish within --seconds\n"
         "# Exit status: 0 PyTorch does not show the failure (one line says so); 1 it does (one line\n"
         "# 'FATHOM-REPRO: KIND: DETAIL'); 2 a setup problem (torch missing, an op this torch lacks).\n";
  if (!dataFile.empty()) out += "# Inputs too large to write here are read from DATA_FILE, beside this script.\n";
  out += "import argparse\nimport math\nimport operator\nimport os\nimport re\nimport signal\nimport subprocess\nimport sys\n\n"
         "try:\n    import torch\nexcept ImportError as e:\n"
         "    print(f\"fathom repro: cannot import torch ({e}); install PyTorch (Debian: python3-torch)\", file=sys.stderr)\n"
         "    sys.exit(2)\n\n";
  const ReproProperty& p = c.property;
  out += "DEFAULT_CHECK = " + quoted(defaultCheck(p)) + "\nDEFAULT_TOL = " + numberText(p.tolerance, kPython, true) +
         "\nDEFAULT_SECONDS = " + numberText(p.kind == PredicateKind::Timeout ? p.seconds : 60.0, kPython, true) +
         "\nDATA_FILE = " + (dataFile.empty() ? "None" : quoted(dataFile)) + "\nnan, inf = float(\"nan\"), float(\"inf\")\n\n\n";
  return out;
}

std::string inputsText(const ReproCase& c) {
  std::string out = "def make_inputs():\n    \"\"\"The example inputs, in placeholder order: values row-major, laid out as recorded.\"\"\"\n    return [\n";
  for (const ReproInput& in : c.inputs) {
    const TensorMeta& m = in.spec.meta;
    const std::string layout = "torch." + std::string(dtypeName(m.dtype)) + ", " + intList(m.sizes) + ", " + intList(m.strides) + ", " +
                               std::to_string(m.storageOffset.hint());
    if (in.fileOffset)
      out += "        from_file(" + std::to_string(*in.fileOffset) + ", " + layout + "),";
    else
      out += "        strided([" + valuesText(in.values, !isFloating(m.dtype), kPython, "                 ") + "], " + layout + "),";
    out += "  # %" + oneLine(in.spec.name) + "\n";
  }
  return out + "    ]\n\n\n";
}

std::string graphText(const Graph& g) {
  const std::set<std::string> reserved = reservedNames();
  std::set<std::string> used, ops;
  std::vector<std::string> vars(g.size());
  std::string params, body, ret = "[]";
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind == NodeKind::Output) {
      if (!n.args.empty()) ret = argText(n.args[0], vars);
      continue;
    }
    vars[i] = identifierFor(n.name, reserved, used);
    if (n.kind == NodeKind::Placeholder) {
      params += ", " + vars[i];
      continue;
    }
    ops.insert(n.target);
    std::string args;
    for (const auto& a : n.args) args += ", " + argText(a, vars);
    for (const auto& [k, a] : n.kwargs) args += ", " + kwargText(k, argText(a, vars));
    body += "    " + vars[i] + " = call(" + quoted(n.name) + ", " + quoted(n.target) + args + ")";
    if (!n.provenance.empty())
      body += "  # " + oneLine(n.provenance.source + (n.provenance.module.empty() ? "" : " (" + n.provenance.module + ")"));
    body += "\n";
  }
  std::string opList = "OPS = [";
  for (const auto& op : ops) opList += (opList.size() > 7 ? ", " : "") + quoted(op);
  return opList + "]  # every op the graph calls, resolved before anything runs\n\n\n" + "def graph(call" + params +
         "):\n    \"\"\"The graph: call(NAME, OP, *args, **kwargs) runs one node.\"\"\"\n" + body + "    return " + ret + "\n\n";
}

}  // namespace

Result<ExportedFile> pytorchScript(const ReproCase& c, const std::string& outputPath) {
  const std::string dataFile = c.sideData.empty() ? "" : std::filesystem::path(sideFilePath(outputPath)).filename().string();
  ExportedFile f;
  f.text = header(c, dataFile) + inputsText(c) + graphText(c.graph) + templates::kPyTorchRuntime;
  f.data = c.sideData;
  return f;
}

}  // namespace fathom::minify
