// Builds a small index from code, then from a dump if one is given, and
// searches it: everything a program needs from fts in a few lines.
//   search_example INDEX_DIR [DUMP.xml[.gz]] [QUERY]
#include <cstdio>
#include <exception>
#include <string>

#include <fts/fts.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: search_example INDEX_DIR [DUMP] [QUERY]\n");
    return 2;
  }
  try {
    {
      fts::IndexWriter writer(argv[1]);
      writer.add({.title = "Cat", .url = "https://example.org/cat", .abstract = "The cat is a small wild animal."});
      writer.add({.title = "Dog", .url = "https://example.org/dog", .abstract = "The dog is a loyal animal."});
      if (argc > 2) fts::add_dump(writer, argv[2]);
      fts::BuildStats stats = writer.commit();
      std::printf("indexed %llu docs\n", static_cast<unsigned long long>(stats.docs));
    }
    fts::Index index = fts::Index::open(argv[1]);
    std::string query = argc > 3 ? argv[3] : "animal -dog";
    fts::Results results = index.search(query, {.limit = 5});
    std::printf("%llu hits for %s\n", static_cast<unsigned long long>(results.total_hits), query.c_str());
    for (const fts::Hit& hit : results.hits) {
      std::printf("%5u %7.3f %s <%s>\n", hit.doc, hit.score, hit.title.c_str(), hit.url.c_str());
    }
    return results.total_hits > 0 ? 0 : 1;
  } catch (const fts::QuerySyntaxError& e) {
    std::fprintf(stderr, "syntax error at %zu: %s\n", e.position(), e.what());
    return 2;
  } catch (const fts::Error& e) {  // every other failure: IndexError, DumpError, IoError, LockError...
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
