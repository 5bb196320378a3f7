// The out-of-line members of the error classes: their vtables and type
// information live in libfts once, so a program catches them by type.
#include "fts/errors.h"

namespace fts {

namespace {
std::string join(const std::string& where, const std::string& message) {
  return where.empty() ? message : where + ": " + message;
}
}  // namespace

Error::Error(const std::string& where, const std::string& message)
    : std::runtime_error(join(where, message)), where_(where) {}
Error::Error(Unprefixed, const std::string& where, const std::string& message)
    : std::runtime_error(message), where_(where) {}
Error::~Error() = default;

IndexError::~IndexError() = default;
DumpError::~DumpError() = default;
LockError::~LockError() = default;
IoError::~IoError() = default;
ArgumentError::~ArgumentError() = default;
TimeoutError::~TimeoutError() = default;
CancelledError::~CancelledError() = default;

QuerySyntaxError::QuerySyntaxError(const std::string& message, size_t position)
    : Error(Unprefixed{}, "query", message), position_(position) {}
QuerySyntaxError::~QuerySyntaxError() = default;

}  // namespace fts
