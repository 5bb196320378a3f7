// The errors fts throws. Every failure that crosses the public API is an
// fts::Error (or std::bad_alloc when memory runs out): what() is one line
// saying what went wrong and where, where() is the place alone (a path, an
// index directory, a dump, "query", an option name).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "fts/export.h"

namespace fts {

class FTS_API Error : public std::runtime_error {
 public:
  // what() becomes "where: message" ("message" when where is empty).
  Error(const std::string& where, const std::string& message);
  ~Error() override;
  const std::string& where() const noexcept { return where_; }

 protected:
  struct Unprefixed {};
  Error(Unprefixed, const std::string& where, const std::string& message);

 private:
  std::string where_;
};

// A missing, damaged or unreadable index, or one fts cannot use (wrong
// format version, too many documents); where() is the file or directory.
class FTS_API IndexError : public Error {
 public:
  using Error::Error;
  ~IndexError() override;
};

// A malformed query. what() is the contract's message alone (empty query,
// unterminated phrase, empty phrase, unbalanced parenthesis, empty group,
// dangling operator AND|OR|NOT|-, field without term, query nested too
// deeply); position() is the 0-based byte offset of the token at fault;
// where() is "query".
class FTS_API QuerySyntaxError : public Error {
 public:
  QuerySyntaxError(const std::string& message, size_t position);
  ~QuerySyntaxError() override;
  size_t position() const noexcept { return position_; }

 private:
  size_t position_;
};

// A dump that cannot be read (missing file, corrupt or truncated gzip, not a
// dump, a malformed <doc> under strict); where() is the dump's path.
class FTS_API DumpError : public Error {
 public:
  using Error::Error;
  ~DumpError() override;
};

// Another writer holds the index directory; where() is the directory.
class FTS_API LockError : public Error {
 public:
  using Error::Error;
  ~LockError() override;
};

// The system refused an I/O operation (full disk, file-size limit,
// permissions, failed fsync or rename); where() is the path.
class FTS_API IoError : public Error {
 public:
  using Error::Error;
  ~IoError() override;
};

// An argument or option the API refuses (a limit too large, a doc id past
// the index); where() names the option or argument.
class FTS_API ArgumentError : public Error {
 public:
  using Error::Error;
  ~ArgumentError() override;
};

// A search, count or matching_docs that ran past SearchOptions::time_budget;
// where() is "search". Nothing is returned from the interrupted call; the
// index is unaffected and answers the next call normally.
class FTS_API TimeoutError : public Error {
 public:
  using Error::Error;
  ~TimeoutError() override;
};

// A search, count or matching_docs stopped because SearchOptions::cancel
// became true; where() is "search".
class FTS_API CancelledError : public Error {
 public:
  using Error::Error;
  ~CancelledError() override;
};

}  // namespace fts
