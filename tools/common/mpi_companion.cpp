#include "common/mpi_companion.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "common/cli.h"

namespace fts::cli {

void hand_over_distributed(int argc, char** argv, const char* companion, const char* tool) {
  bool distributed = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;  // the rest are operands (query words, dumps)
    if (arg == "--distributed") distributed = true;
  }
  if (!distributed) return;
  // Beside this executable, wherever it was installed or built.
  std::string self(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size());
  if (n <= 0 || static_cast<size_t>(n) >= self.size()) {
    print_error(tool, std::string("--distributed: cannot find this executable: ") + std::strerror(errno));
    std::exit(kUsageError);
  }
  self.resize(static_cast<size_t>(n));
  const std::string path = self.substr(0, self.rfind('/') + 1) + companion;
  ::execv(path.c_str(), argv);
  print_error(tool, "--distributed runs " + path + ", which could not be started (" + std::strerror(errno) +
                        "): build with MPI (cmake -DFTS_MPI=ON) or install it beside this tool");
  std::exit(kUsageError);
}

}  // namespace fts::cli
