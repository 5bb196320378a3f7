// --distributed runs in a companion executable, TOOL-mpi, installed beside
// the tool: only it links Open MPI. Loading Open MPI's seven libraries took
// about 2.5 ms of every fts-search process on this machine, searches that
// never use it included.
#pragma once

namespace fts::cli {

// With --distributed among argv's options, replaces this process by the
// companion (same arguments, environment and pid, so mpirun's ranks stay
// its own); when it cannot be run, prints "TOOL: why" and exits with
// kUsageError. Returns otherwise. For the start of main().
void hand_over_distributed(int argc, char** argv, const char* companion, const char* tool);

}  // namespace fts::cli
