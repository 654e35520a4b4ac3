// Internal to engine/dump: the "partition" section (PartitionInfo.h) written and read back.
// Saved values name nodes of the forward graph; their layouts are read from there, so the
// section cannot disagree with the graphs.
#pragma once

#include <memory>
#include <string>

#include "engine/dump/Dump.h"
#include "engine/dump/DumpValueReader.h"
#include "engine/graph/PartitionInfo.h"

namespace fathom::dumpread {

std::string partitionText(const PartitionInfo& p, const std::string& indent);
// Reads the section after the graphs (it refers to them).
std::shared_ptr<const PartitionInfo> readPartition(const json& j, const Ptr& ptr, const Dump& dump);

}  // namespace fathom::dumpread
