#include "query/searcher.h"
