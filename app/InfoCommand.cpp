// `fathom info DUMP [--json]`: what a dump holds - its producer, and per graph the node count,
// the op histogram (call nodes only), the placeholders with their recorded layouts, and the
// example inputs. Loading validates the whole dump, so `info` is also the quickest check that
// a dump is well formed (exit 2 with one line naming the file and JSON pointer when not).
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include "app/CliCommon.h"

namespace fathom::cli {
namespace {

struct InfoOptions {
  std::string dump;
  DumpLoadFlags load;  // --keep-unknown-ops, --trust-paths
  bool json = false;
};

struct GraphSummary {
  size_t placeholders = 0, calls = 0, outputs = 0;
  std::map<std::string, int64_t> ops;  // sorted by op name
  std::vector<std::string> opaque;     // nodes whose op this build does not know (--keep-unknown-ops)
};

GraphSummary summarize(const Graph& g) {
  GraphSummary s;
  for (const auto& n : g.nodes()) {
    switch (n.kind) {
      case NodeKind::Placeholder: ++s.placeholders; break;
      case NodeKind::Call:
        ++s.calls;
        ++s.ops[n.target];
        if (n.opaque) s.opaque.push_back(n.name);
        break;
      case NodeKind::Output: ++s.outputs; break;
    }
  }
  return s;
}

// Bytes the example inputs need (saturating: the reader already checked each one fits).
uint64_t inputBytes(const std::vector<ExampleInput>& inputs) {
  uint64_t total = 0;
  for (const auto& in : inputs) {
    if (in.integer) continue;  // a SymInt placeholder's number
    IntList sizes, strides;
    for (const auto& s : in.meta.sizes) sizes.push_back(s.hint());
    for (const auto& s : in.meta.strides) strides.push_back(s.hint());
    auto bytes = storageBytesFor(sizes, strides, in.meta.storageOffset.hint(), in.meta.dtype);
    if (!bytes.ok() || __builtin_add_overflow(total, static_cast<uint64_t>(*bytes), &total)) return UINT64_MAX;
  }
  return total;
}

Json placeholdersJson(const Graph& g) {
  Json out = Json::array();
  for (NodeRef r : g.placeholders()) {
    const Node& n = g.node(r);
    Json j = {{"name", n.name}};
    if (auto* m = n.val.tryAs<TensorMeta>()) j.update(tensorMetaJson(*m));
    else if (n.val.isInt()) j["symint"] = n.val.as<SymInt>().str();  // a size input (torch 2.x's dynamic graphs)
    out.push_back(std::move(j));
  }
  return out;
}

Json exampleInputsJson(const std::vector<ExampleInput>& inputs) {
  Json out = Json::array();
  for (const auto& in : inputs) {
    Json j = {{"name", in.name}};
    if (in.integer) {
      j["int"] = *in.integer;
      out.push_back(std::move(j));
      continue;
    }
    j.update(tensorMetaJson(in.meta));
    if (in.seed) {
      j["seed"] = *in.seed;
    } else if (in.file.present()) {
      j["file"] = in.file.name;
      j["file_offset"] = in.file.offset;
    } else {
      j["data"] = in.data.size();  // inline values: their count
    }
    out.push_back(std::move(j));
  }
  return out;
}

Json infoJson(const Dump& dump, const std::string& path) {
  Json graphs = Json::object();
  for (const auto& [name, graph] : dump.graphs) {
    const GraphSummary s = summarize(graph);
    Json g = {{"nodes", graph.size()},
              {"placeholders", s.placeholders},
              {"calls", s.calls},
              {"ops", Json(s.ops)},
              {"inputs", placeholdersJson(graph)}};
    if (!s.opaque.empty()) g["opaque"] = s.opaque;
    if (const auto* outputs = dump.outputsFor(name)) g["recorded_outputs"] = outputs->size();
    if (const auto* inputs = dump.inputsFor(name)) {
      g["example_inputs"] = exampleInputsJson(*inputs);
      g["example_input_bytes"] = inputBytes(*inputs);
    }
    graphs[name] = std::move(g);
  }
  Json producer = Json::object();
  for (const auto& [k, v] : dump.producer) producer[k] = v;
  return {{"file", path}, {"producer", std::move(producer)}, {"graphs", std::move(graphs)}};
}

void printInfoText(const Dump& dump, const std::string& path) {
  std::cout << path << "\n";
  if (!dump.producer.empty()) {
    std::cout << "  producer:";
    for (const auto& [k, v] : dump.producer) std::cout << " " << k << "=" << v;
    std::cout << "\n";
  }
  for (const auto& [name, graph] : dump.graphs) {
    const GraphSummary s = summarize(graph);
    std::cout << "  graph '" << name << "': " << graph.size() << " nodes (" << s.placeholders
              << " placeholders, " << s.calls << " calls, " << s.outputs << " output)\n";
    if (!s.ops.empty()) {
      std::cout << "    ops:\n";
      for (const auto& [op, count] : s.ops) {
        char line[256];
        std::snprintf(line, sizeof line, "      %-32s %lld\n", op.c_str(), static_cast<long long>(count));
        std::cout << line;
      }
    }
    if (!s.placeholders) continue;
    std::cout << "    inputs:\n";
    for (NodeRef r : graph.placeholders()) {
      const Node& n = graph.node(r);
      std::cout << "      %" << n.name;
      if (auto* m = n.val.tryAs<TensorMeta>())
        std::cout << "  " << dtypeName(m->dtype) << " sizes " << intListText(m->sizes) << " strides "
                  << intListText(m->strides) << (m->storageOffset.hint() ? " offset " + m->storageOffset.str() : "");
      else if (n.val.isInt())
        std::cout << "  SymInt " << n.val.as<SymInt>().str();
      std::cout << "\n";
    }
    if (const auto* inputs = dump.inputsFor(name)) {
      size_t seeded = 0, inFile = 0, integers = 0;
      for (const auto& in : *inputs) {
        seeded += in.seed ? 1 : 0;
        inFile += in.file.present() ? 1 : 0;
        integers += in.integer ? 1 : 0;
      }
      std::cout << "    example inputs: " << inputs->size() << " (" << seeded << " seeded, "
                << inputs->size() - seeded - inFile - integers << " inline" << (inFile ? ", " + std::to_string(inFile) + " in a side file" : "")
                << (integers ? ", " + std::to_string(integers) + " SymInt values" : "")
                << "), " << humanBytes(inputBytes(*inputs)) << "\n";
    }
    if (const auto* outputs = dump.outputsFor(name))
      std::cout << "    recorded outputs: " << outputs->size() << " (what the producer's run returned; fathom run compares)\n";
    if (!s.opaque.empty())
      std::cout << "    opaque nodes: " << s.opaque.size() << " (%" << s.opaque.front() << (s.opaque.size() > 1 ? ", ..." : "")
                << "): ops this build does not know, kept by --keep-unknown-ops\n";
  }
}

}  // namespace

Command addInfoCommand(CLI::App& parent) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* app = parent.add_subcommand("info", "Summarize a dump: graphs, node counts, op histogram, inputs");
  addDumpArgument(app, &opts->dump, &opts->load);
  app->add_flag("--json", opts->json, "Print JSON: {file, producer, graphs: {NAME: {nodes, ops, inputs, ...}}}");
  return {app, [opts] {
            int rc = kExitOk;
            auto dump = loadDumpOrReport(opts->dump, &rc, opts->load);
            if (!dump) return rc;
            if (opts->json) printJson(infoJson(*dump, opts->dump));
            else printInfoText(*dump, opts->dump);
            return kExitOk;
          }};
}

}  // namespace fathom::cli
