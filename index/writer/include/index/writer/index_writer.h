// The index writer: a public type (fts/index_writer.h), implemented here.
// It analyzes and inverts documents in memory, flushes a segment whenever
// the RAM budget is reached, merges the segments at commit, and publishes
// them by atomically replacing the manifest, so a crash at any moment leaves
// the previous index (or none) intact.
#pragma once

#include "fts/index_writer.h"
