// Turns the bytes of one <doc>...</doc> element into a Document with
// pugixml, reusing one DOM and the Document's string capacity across docs.
#pragma once

#include <pugixml.hpp>

#include <cstddef>
#include <string>

#include "dump/document.h"

namespace fts {

class DumpDocParser {
 public:
  // Parses the bytes in place (they are overwritten). On success fills doc
  // (byte_offset untouched) and returns true; on malformed XML returns false
  // and sets error to pugixml's description plus the offset inside the doc.
  bool parse(char* bytes, size_t size, Document& doc, std::string& error);

 private:
  pugi::xml_document dom_;
};

// The title as the index sees it: leading spaces/tabs/CR/LF skipped, then a
// leading "Wikipedia: " removed. Edits in place.
void strip_title_prefix(std::string& title);

}  // namespace fts
