// FTS_API marks what libfts exports. The library is built with
// -fvisibility=hidden, so everything else in it stays private to it and can
// change without breaking a program linked against it.
#pragma once

#define FTS_API __attribute__((visibility("default")))
// FTS_LOCAL keeps a nested implementation type (the Impl of a pimpl) out of
// the exports, which it would otherwise inherit from its exported class.
#define FTS_LOCAL __attribute__((visibility("hidden")))
