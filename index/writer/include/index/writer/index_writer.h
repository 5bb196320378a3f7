// The index writer: a public type (fts/index_writer.h), implemented here;
// plus what the engine needs of it beyond the public surface (deletes
// selected by a function of the commit's snapshot: delete by query).
#pragma once

#include <functional>
#include <vector>

#include "fts/index_writer.h"
#include "index/format/fields.h"

namespace fts {

class IndexReader;

struct IndexWriterAccess {
  // select returns ids from a snapshot of the index at commit (it holds the
  // docs added before the commit); only ids given before this call are
  // deleted.
  using DocSelector = std::function<std::vector<DocId>(const IndexReader&)>;
  static void delete_matching(IndexWriter& writer, DocSelector select);
  // The stopwords documents are analyzed with (the index's own when appending).
  static const Stopwords& stopwords(const IndexWriter& writer);
};

}  // namespace fts
