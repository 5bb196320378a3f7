#include "index/index_reader.h"
