// A program built against the installed Fathom (tests/install): loads a dump, runs its first graph
// through the interpreter, and checks the result against a sample built in-process, so the
// engine, the minifier and the samples libraries all link and work from the install prefix.
//   consumer DUMP SAMPLE   e.g. consumer mlp.fathom.json mlp; prints "graph G: N outputs, ..."
#include <cstdio>
#include <string>

#include "engine/dump/Dump.h"
#include "engine/interp/ExampleInputs.h"
#include "engine/interp/Interpreter.h"
#include "minifier/Passes.h"
#include "samples/Samples.h"

namespace {

int fail(const std::string& what) {
  std::fprintf(stderr, "consumer: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace fathom;
  if (argc != 3) return fail("usage: consumer DUMP SAMPLE");
  auto dump = loadDump(argv[1]);
  if (!dump.ok()) return fail(dump.error().str());
  const NamedGraph& g = dump->graphs.front();
  auto inputs = chooseInputs(&g.graph, g.name, dump->inputsFor(g.name), nullptr);
  if (!inputs.ok()) return fail(inputs.error().str());
  auto tensors = materializeInputs(*inputs);
  if (!tensors.ok()) return fail(tensors.error().str());
  Interpreter interpreter(g.graph);
  auto outputs = interpreter.run(std::move(*tensors));
  if (!outputs.ok()) return fail(outputs.error().str());
  std::string sizes;
  for (const Value& v : *outputs)
    if (const Tensor* t = v.tryAs<Tensor>())
      for (size_t i = 0; i < t->sizes().size(); ++i) sizes += (i ? "x" : sizes.empty() ? "" : ",") + std::to_string(t->sizes()[i]);

  // The same graph built by the samples library: the dump must be what it writes.
  const samples::SampleInfo* sample = samples::findSample(argv[2]);
  if (!sample) return fail(std::string("no sample named ") + argv[2]);
  auto built = sample->build();
  if (!built.ok()) return fail(built.error().str());
  if (built->graphs.front().graph.nodes().size() != g.graph.nodes().size())
    return fail("the dump's graph and the sample's differ in node count");
  std::printf("graph %s: %zu outputs, sizes %s; %zu nodes as the sample builds it; %zu minifier passes\n",
              g.name.c_str(), outputs->size(), sizes.c_str(), g.graph.nodes().size(), minify::allPasses().size());
  return 0;
}
