// saveDump with a scratch folder: a side file inside `scratchFolder` - a run's temporary files,
// such as `fathom minify`'s spill of large values - is always copied into the dump's own side
// file (PATH.bin), even when the scratch folder lies inside the dump's folder (a run writing
// /tmp/x.fathom.json while spilling to /tmp/fathom-minify-N/): kept by name, it would be gone
// when the run ends. Otherwise the same as saveDump (Dump.h).
#pragma once

#include <string>

#include "engine/core/Result.h"
#include "engine/dump/Dump.h"

namespace fathom {

Status saveDumpCopyingScratch(const Dump& dump, const std::string& path, const std::string& scratchFolder);

}  // namespace fathom
