// KernelJit with LLVM 19: LLJIT links objects this file emits itself (so they can be kept on
// disk); LLVM reports errors through llvm::Error, turned into Fathom errors here - nothing throws
// through LLVM.
#include "engine/compile/KernelJit.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include <unistd.h>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include "engine/compile/LlvmKernelEmitter.h"

namespace fathom {
namespace {

// Bump when generated code changes for the same signature: old cache entries then miss.
constexpr const char* kGeneratorVersion = "fathom-jit-1";

std::string message(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << e;
  return os.str();
}

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string hex(uint64_t h) {
  std::ostringstream o;
  o << std::hex << h;
  return o.str();
}

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::string defaultCacheDir() {
  if (const char* d = std::getenv("FATHOM_KERNEL_CACHE")) return std::string(d) == "off" ? "" : d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/fathom/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/fathom/kernels";
  return "";
}

// Whether `obj` (a cache file's bytes) is an object file defining every symbol in `symbols`: a
// truncated, corrupt or foreign file is a cache miss, never something linked into the process.
bool definesAll(const std::string& obj, const std::vector<std::string>& symbols) {
  auto parsed = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(obj, "cached kernels"));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return false;
  }
  std::unordered_map<std::string, bool> found;
  for (const auto& sym : (*parsed)->symbols()) {
    auto name = sym.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      return false;
    }
    found[name->str()] = true;
  }
  for (const auto& want : symbols)
    if (!found.count(want)) return false;
  return true;
}

// The disk cache keeps at most this many object files; past it, the least recently written go
// (a minifier run compiles many small candidate graphs).
constexpr size_t kCacheFiles = 4096;

void trimCache(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".o") files.emplace_back(e.last_write_time(ec), e.path());
  if (files.size() <= kCacheFiles) return;
  std::sort(files.begin(), files.end());
  for (size_t i = 0; i < files.size() - kCacheFiles * 3 / 4; ++i) fs::remove(files[i].second, ec);
}

// Written whole, then renamed: a reader never sees half a file.
void writeCacheFile(const std::string& dir, const std::string& file, const std::string& obj) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string tmp = file + ".tmp" + std::to_string(::getpid());
  std::ofstream(tmp, std::ios::binary).write(obj.data(), static_cast<std::streamsize>(obj.size()));
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  trimCache(dir);
}

}  // namespace

struct KernelJit::Impl {
  std::mutex mutex;
  std::string error;  // why code cannot be generated here, if so
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unordered_map<std::string, KernelFn> bySignature;
  int64_t modules = 0;

  Impl() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
      error = message(jtmb.takeError());
      return;
    }
    // Generated loops arrive optimized (O3 IR passes); the fast instruction selector keeps
    // compile time low at nearly the same speed (PLATFORM.md: 4-8 ms against 6-12 ms a kernel). No contraction: a * b + c rounds twice, as eager.
    jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
    jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
    auto machine = jtmb->createTargetMachine();
    if (!machine) {
      error = message(machine.takeError());
      return;
    }
    tm = std::move(*machine);
    auto built = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*jtmb).create();
    if (!built) {
      error = message(built.takeError());
      return;
    }
    jit = std::move(*built);
    // libm's exp, log, tanh, erf for float64 come from this process.
    auto search = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit->getDataLayout().getGlobalPrefix());
    if (!search) {
      error = message(search.takeError());
      return;
    }
    jit->getMainJITDylib().addGenerator(std::move(*search));
  }

  std::string target() const {
    return tm ? tm->getTargetTriple().str() + ", " + tm->getTargetCPU().str() : "none";
  }

  static std::string symbolOf(const std::string& signature) { return "fathom_kernel_" + hex(fnv1a(signature)); }

  std::unique_ptr<llvm::Module> module(llvm::LLVMContext& ctx, const std::vector<const LoweredKernel*>& ks) {
    auto m = std::make_unique<llvm::Module>("fathom_kernels", ctx);
    m->setDataLayout(tm->createDataLayout());
    m->setTargetTriple(tm->getTargetTriple().str());
    for (const LoweredKernel* k : ks) {
      llvm::Function* f = emitKernel(*m, *k, symbolOf(k->signature()));
      f->addFnAttr("target-cpu", tm->getTargetCPU());
      f->addFnAttr("target-features", tm->getTargetFeatureString());
      // LLVM keeps AVX-512 machines at 256-bit vectors by default (clock throttling on early
      // parts); the fused kernels are long arithmetic chains that gain from the full width.
      if (tm->getTargetFeatureString().contains("+avx512f")) f->addFnAttr("prefer-vector-width", "512");
    }
    return m;
  }

  Status optimize(llvm::Module& m) {
    std::string why;
    llvm::raw_string_ostream os(why);
    if (llvm::verifyModule(m, &os)) return internalError("generated IR does not verify: " + os.str());
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
    return {};
  }

  Result<std::string> object(llvm::Module& m) {
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream os(buffer);
    llvm::legacy::PassManager pm;
    if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile))
      return internalError("LLVM cannot emit an object file for " + target());
    pm.run(m);
    return std::string(buffer.begin(), buffer.end());
  }

  Status link(const std::string& obj) {
    auto buf = llvm::MemoryBuffer::getMemBufferCopy(obj, "fathom_kernels_" + std::to_string(modules++));
    if (auto e = jit->addObjectFile(std::move(buf))) return internalError("linking kernels: " + message(std::move(e)));
    return {};
  }

  // The object file of `kernels`, generated now (the statistics say how long each step took).
  Result<std::string> generate(const std::vector<const LoweredKernel*>& kernels, JitStats& s) {
    const auto t0 = std::chrono::steady_clock::now();
    llvm::LLVMContext ctx;
    auto m = module(ctx, kernels);
    const auto tA = std::chrono::steady_clock::now();
    FATHOM_TRY(optimize(*m));
    const auto tB = std::chrono::steady_clock::now();
    auto o = object(*m);
    FATHOM_TRY(o);
    s.optimizeMs += std::chrono::duration<double, std::milli>(tB - tA).count();
    s.machineCodeMs += msSince(tB);
    s.compiled += static_cast<int64_t>(kernels.size());
    s.compileMs += msSince(t0);
    return o;
  }

  Result<KernelFn> lookup(const std::string& signature) {
    auto addr = jit->lookup(symbolOf(signature));
    if (!addr) return internalError("kernel symbol missing: " + message(addr.takeError()));
    return addr->toPtr<KernelFn>();
  }
};

KernelJit::KernelJit() : impl_(std::make_unique<Impl>()) {}
KernelJit::~KernelJit() = default;

KernelJit& KernelJit::process() {
  static KernelJit* jit = new KernelJit();  // lives to exit: kernels may run in static teardown
  return *jit;
}

bool KernelJit::available(std::string* why) const {
  if (why) *why = impl_->error;
  return impl_->error.empty();
}

std::string KernelJit::target() const { return impl_->target(); }
std::string KernelJit::cacheDir() const { return defaultCacheDir(); }

Result<std::vector<KernelFn>> KernelJit::compile(const std::vector<const LoweredKernel*>& kernels, JitStats* stats) {
  if (!impl_->error.empty()) return internalError("no code generation on this machine: " + impl_->error);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  JitStats local;
  JitStats& s = stats ? *stats : local;
  s.kernels += static_cast<int64_t>(kernels.size());
  // The kernels this process has not compiled yet, each signature once.
  std::vector<const LoweredKernel*> missing;
  std::vector<std::string> signatures;
  std::unordered_map<std::string, bool> queued;
  std::vector<size_t> missingAt;  // positions in s.sources of the kernels generated or loaded now
  for (const LoweredKernel* k : kernels) {
    std::string sig = k->signature();
    if (impl_->bySignature.count(sig) || queued[sig]) {
      ++s.fromMemory;
      s.sources.push_back(KernelSource::Memory);
      continue;
    }
    queued[sig] = true;
    missing.push_back(k);
    signatures.push_back(sig);
    missingAt.push_back(s.sources.size());
    s.sources.push_back(KernelSource::Compiled);
  }
  if (!missing.empty()) {
    std::string all = std::string(kGeneratorVersion) + "\n" + impl_->target() + "\n" +
                      impl_->tm->getTargetFeatureString().str() + "\n";
    for (const auto& sig : signatures) all += sig + "--\n";
    const std::string dir = defaultCacheDir();
    const std::string file = dir.empty() ? "" : dir + "/" + hex(fnv1a(all)) + ".o";
    std::string obj;
    if (!file.empty()) {
      std::ifstream in(file, std::ios::binary);
      if (in) obj.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::vector<std::string> symbols;
    for (const auto& sig : signatures) symbols.push_back(Impl::symbolOf(sig));
    if (!obj.empty() && !definesAll(obj, symbols)) {  // a damaged cache entry: compile again
      obj.clear();
      std::error_code ec;
      std::filesystem::remove(file, ec);
    }
    if (!obj.empty()) {
      s.fromDisk += static_cast<int64_t>(missing.size());
      for (size_t at : missingAt) s.sources[at] = KernelSource::Disk;
    } else {
      auto generated = impl_->generate(missing, s);
      FATHOM_TRY(generated);
      obj = std::move(*generated);
      if (!file.empty()) writeCacheFile(dir, file, obj);
    }
    const auto t1 = std::chrono::steady_clock::now();
    FATHOM_TRY(impl_->link(obj));
    for (const auto& sig : signatures) {
      auto fn = impl_->lookup(sig);
      FATHOM_TRY(fn);
      impl_->bySignature[sig] = *fn;
    }
    s.loadMs += msSince(t1);
  }
  std::vector<KernelFn> out;
  for (const LoweredKernel* k : kernels) out.push_back(impl_->bySignature.at(k->signature()));
  return out;
}

Result<std::string> KernelJit::ir(const LoweredKernel& kernel, bool optimized) {
  if (!impl_->error.empty()) return internalError("no code generation on this machine: " + impl_->error);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  llvm::LLVMContext ctx;
  auto m = impl_->module(ctx, {&kernel});
  if (optimized) FATHOM_TRY(impl_->optimize(*m));
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os, nullptr);
  return os.str();
}

}  // namespace fathom
