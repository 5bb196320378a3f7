// The public API's promise: only fts::Error (or std::bad_alloc) leaves it.
// Every entry point of libfts runs its body through at_api_boundary, which
// turns whatever else a layer below let escape into an fts::Error naming
// where it happened, so an embedder's catch (const fts::Error&) is enough.
#pragma once

#include <filesystem>
#include <new>
#include <string>
#include <system_error>
#include <utility>

#include "fts/errors.h"

namespace fts {

template <class F>
decltype(auto) at_api_boundary(const std::string& where, F&& body) {
  try {
    return std::forward<F>(body)();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::filesystem::filesystem_error& e) {
    throw IoError(e.path1().empty() ? where : e.path1().string(), e.code().message());
  } catch (const std::system_error& e) {
    throw IoError(where, e.what());
  } catch (const std::exception& e) {
    throw IndexError(where, e.what());
  }
}

}  // namespace fts
