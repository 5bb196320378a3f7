// fts: a full-text search library. The whole public API:
//   fts/index.h         Index, Query, SearchOptions, Results, Hit
//   fts/index_writer.h  IndexWriter, IndexWriterOptions, BuildStats
//   fts/dump.h          add_dump, DumpOptions
//   fts/document.h      Document, DocId
//   fts/stopwords.h     Stopwords
//   fts/errors.h        Error and its kinds
// Link with -lfts (pkg-config fts, or find_package(fts) and fts::fts).
#pragma once

#include "fts/document.h"
#include "fts/dump.h"
#include "fts/errors.h"
#include "fts/index.h"
#include "fts/index_writer.h"
#include "fts/stopwords.h"
#include "fts/version.h"
