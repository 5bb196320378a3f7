// A document of the dump, as the reader yields it and the index stores it:
// the public fts::Document (fts/document.h).
#pragma once

#include "fts/document.h"
