// Internal to engine/dump: where a dump's side files may be. A dump is read from a folder, and
// unless the reader is told to trust its paths (DumpReadOptions::trustPaths) a side file must be
// inside that folder: a relative name, no ".." in it, and still inside once links are followed.
// So a dump from someone else cannot make Fathom read /etc/passwd or ~/.ssh as tensor data, and
// every dump Fathom writes (saveDump) names its side files that way.
#pragma once

#include <filesystem>
#include <string>

namespace fathom::dumpread {

// `folder` ("" is the current folder) with its links resolved, as sideFileOutside compares.
std::filesystem::path resolvedFolder(const std::string& folder);
// Whether `path`, links followed, lies strictly inside `resolved` (a resolvedFolder result).
bool isInsideFolder(const std::filesystem::path& path, const std::filesystem::path& resolved);
// The reader's message when side file `name` of a dump in `folder` is not inside it (an absolute
// name, a ".." component, or a link leading out), naming --trust-paths; "" when it is inside.
std::string sideFileOutside(const std::string& name, const std::string& folder);

}  // namespace fathom::dumpread
