// Stopword set: a public type (fts/stopwords.h), implemented here.
#pragma once

#include "fts/stopwords.h"
