// fts-index dupes: the largest near-duplicate clusters of an index, with
// their titles, for inspection.
#pragma once

#include <string>
#include <vector>

namespace fts {
int dupes(const std::vector<std::string>& args);  // throws cli::UsageError, fts::Error
}
