// The shared library libfts has no code of its own: it is the static
// libraries (base, util, dump, analyzer, index, query, engine) linked whole.
// CMake needs one source file per library target; this is it.
