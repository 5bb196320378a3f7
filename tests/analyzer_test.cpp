// The analyzer contract: tokenizer (runs of L*/N* code points, invalid UTF-8
// bytes separate), simple lowercase, stopwords, Snowball English stems.
// Expected values were checked against the reference analyzer of
// ../shared/peers (Python unicodedata + PyStemmer), not guessed.
#include "analyzer/analyzer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using fts::Analyzer;
using fts::Stopwords;
using Terms = std::vector<std::string>;

// Without stopwords, so that tokenizer and lowercase are seen on their own.
Terms tokens(std::string_view text) {
  Analyzer a(Stopwords::none());
  return a.analyze(text);
}

TEST(AnalyzerTokenize, EmptyAndSeparatorOnlyInputGiveNothing) {
  EXPECT_TRUE(tokens("").empty());
  EXPECT_TRUE(tokens(" \t\n.,;:!?-_'\"()[]{}").empty());
  EXPECT_TRUE(tokens("\xC2\xA0\xE2\x80\x8B\xF0\x9F\x98\x80").empty());  // NBSP, ZWSP, emoji
}

TEST(AnalyzerTokenize, AsciiWordsAndDigits) {
  EXPECT_EQ(tokens("Hello, World!"), (Terms{"hello", "world"}));
  EXPECT_EQ(tokens("2024 x86_64 3.14 1,000"), (Terms{"2024", "x86", "64", "3", "14", "1", "000"}));
  EXPECT_EQ(tokens("  leading and trailing  "), (Terms{"lead", "and", "trail"}));
}

TEST(AnalyzerTokenize, PunctuationApostrophesAndHyphensSeparate) {
  EXPECT_EQ(tokens("it's wi-fi rock'n'roll O\u2019Neill e-mail a_b"),
            (Terms{"it", "s", "wi", "fi", "rock", "n", "roll", "o", "neill", "e", "mail", "a", "b"}));
}

TEST(AnalyzerTokenize, NumbersBeyondAsciiDigitsAreTokens) {
  // U+00BD and U+00B2 are No, U+0663 Nd, U+216B (Roman twelve) Nl with a lowercase.
  EXPECT_EQ(tokens("\u00BD \u00B2 \u0663 \u216B"), (Terms{"\u00BD", "\u00B2", "\u0663", "\u217B"}));
}

TEST(AnalyzerTokenize, Cyrillic) {
  EXPECT_EQ(tokens("Москва — столица России"), (Terms{"москва", "столица", "россии"}));
}

TEST(AnalyzerTokenize, GreekUsesSimpleLowercaseWithoutFinalSigma) {
  EXPECT_EQ(tokens("ΟΔΟΣ Σίσυφος ΣΊΣΥΦΟΣ"), (Terms{"οδοσ", "σίσυφος", "σίσυφοσ"}));
}

TEST(AnalyzerTokenize, CjkAndHangul) {
  // U+30FC (prolonged sound mark) is Lm, so it stays inside the token; the
  // fullwidth comma U+FF0C is punctuation.
  EXPECT_EQ(tokens("東京タワー 中文，日本語"), (Terms{"東京タワー", "中文", "日本語"}));
  EXPECT_EQ(tokens("한국어 문장"), (Terms{"한국어", "문장"}));
}

TEST(AnalyzerTokenize, ArabicAndDevanagariMarksSeparate) {
  EXPECT_EQ(tokens("اللغة العربية"), (Terms{"اللغة", "العربية"}));
  // Fatha (U+064E) is Mn: a separator.
  EXPECT_EQ(tokens("كَتَبَ"), (Terms{"ك", "ت", "ب"}));
  // Vowel signs (Mc) and virama (Mn) are marks, not letters.
  EXPECT_EQ(tokens("हिन्दी भाषा"), (Terms{"ह", "न", "द", "भ", "ष"}));
}

TEST(AnalyzerTokenize, CombiningMarkSeparatesButPrecomposedLetterDoesNot) {
  EXPECT_EQ(tokens("e\u0301te"), (Terms{"e", "te"}));
  EXPECT_EQ(tokens("caf\u00E9"), (Terms{"caf\u00E9"}));
}

TEST(AnalyzerTokenize, InvisibleSpacesAndSoftHyphenSeparate) {
  EXPECT_EQ(tokens("foo\u00A0bar foo\u00ADbar foo\u200Bbar foo\u2060bar"),
            (Terms{"foo", "bar", "foo", "bar", "foo", "bar", "foo", "bar"}));
}

TEST(AnalyzerTokenize, EmojiSeparate) {
  EXPECT_EQ(tokens("cat\U0001F600dog \U0001F44D\U0001F3FDok"), (Terms{"cat", "dog", "ok"}));
}

// Each case: an invalid sequence between two tokens, which must come out
// whole: the invalid bytes separate and nothing valid is swallowed.
TEST(AnalyzerTokenize, InvalidUtf8BytesAreSeparators) {
  const std::vector<std::pair<const char*, std::string>> cases = {
      {"stray continuation", std::string("ab\x80" "cd")},
      {"two stray continuations", std::string("ab\x80\xBF" "cd")},
      {"0xFF", std::string("ab\xFF" "cd")},
      {"0xFE", std::string("ab\xFE" "cd")},
      {"0xF5 lead", std::string("ab\xF5\x80\x80\x80" "cd")},
      {"lone lead byte", std::string("ab\xC3" "cd")},
      {"truncated 3-byte", std::string("ab\xE2\x82" "cd")},
      {"truncated 4-byte", std::string("ab\xF0\x9F\x98" "cd")},
      {"overlong 2-byte (C0 AF = '/')", std::string("ab\xC0\xAF" "cd")},
      {"overlong 2-byte (C1)", std::string("ab\xC1\x81" "cd")},
      {"overlong 3-byte", std::string("ab\xE0\x80\xAF" "cd")},
      {"overlong 4-byte", std::string("ab\xF0\x80\x80\xAF" "cd")},
      {"high surrogate", std::string("ab\xED\xA0\x80" "cd")},
      {"low surrogate", std::string("ab\xED\xBF\xBF" "cd")},
      {"beyond U+10FFFF", std::string("ab\xF4\x90\x80\x80" "cd")},
  };
  for (const auto& [what, text] : cases) EXPECT_EQ(tokens(text), (Terms{"ab", "cd"})) << what;
}

TEST(AnalyzerTokenize, DecodingResumesRightAfterAnInvalidByte) {
  // The truncated lead byte must not eat the valid 'é' (C3 A9) after it.
  EXPECT_EQ(tokens("ab\xE2\xC3\xA9"), (Terms{"ab", "\u00E9"}));
  // ...nor ASCII letters: a lone lead byte in the middle of a word splits it.
  EXPECT_EQ(tokens("x\xF0\x9F\x98y"), (Terms{"x", "y"}));
  // Invalid at the very end, alone, and at the start.
  EXPECT_EQ(tokens("ab\xE2"), (Terms{"ab"}));
  EXPECT_EQ(tokens("\xE2"), Terms{});
  EXPECT_EQ(tokens("\xFF" "ab"), (Terms{"ab"}));
  // The smallest valid sequences of each length just next to the invalid ones.
  EXPECT_EQ(tokens("\xC2\xAA \xE0\xA0\x80 \xF0\x90\x80\x80"), (Terms{"\u00AA", "\u0800", "\U00010000"}));
}

TEST(AnalyzerTokenize, VeryLongTokenStaysWhole) {
  const std::string word(100000, 'x');
  EXPECT_EQ(tokens(word), (Terms{word}));
  const std::string upper = std::string(100000, 'Q') + " tail";
  const Terms got = tokens(upper);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], std::string(100000, 'q'));
  EXPECT_EQ(got[1], "tail");
}

TEST(AnalyzerTokenize, VeryLongTokenIsStemmed) {
  // Checked with the reference: "ba"*50000 + "ing" stems to "ba"*50000.
  std::string word;
  for (int i = 0; i < 50000; ++i) word += "ba";
  EXPECT_EQ(tokens(word + "ing"), (Terms{word}));
}

TEST(AnalyzerLowercase, SimpleUnicodeLowercase) {
  EXPECT_EQ(tokens("İstanbul"), (Terms{"istanbul"}));       // U+0130 -> plain i
  EXPECT_EQ(tokens("Straße STRASSE"), (Terms{"straße", "strass"}));  // ß stays ß
  EXPECT_EQ(tokens("ＡＢＣ"), (Terms{"ａｂｃ"}));                // fullwidth
  EXPECT_EQ(tokens("ÀÉÎÕÜ Ÿ"), (Terms{"àéîõü", "ÿ"}));
  EXPECT_EQ(tokens("\u01C5emal"), (Terms{"\u01C6emal"}));    // titlecase digraph Dž
  EXPECT_EQ(tokens("ABCXYZ"), tokens("abcxyz"));
}

TEST(AnalyzerStopwords, DefaultListIsDroppedAfterLowercasing) {
  Analyzer a;
  EXPECT_EQ(a.analyze("The cat and THE dog of a house to be"), (Terms{"cat", "dog", "hous"}));
  EXPECT_EQ(a.analyze("I have that in"), Terms{});
  // Stopwords are whole tokens: "the" inside "theory" or "a" in "a1" stay.
  EXPECT_EQ(a.analyze("theory a1"), (Terms{"theori", "a1"}));
}

TEST(AnalyzerStopwords, NoneKeepsEverything) {
  Analyzer a(Stopwords::none());
  EXPECT_EQ(a.analyze("the a of"), (Terms{"the", "a", "of"}));
}

TEST(AnalyzerStopwords, CustomListReplacesTheDefault) {
  Analyzer a(Stopwords({"Cat", "running"}));
  // "running" is matched before stemming, "runs" is not a stopword.
  EXPECT_EQ(a.analyze("the cat running runs"), (Terms{"the", "run"}));
}

TEST(AnalyzerStem, KnownPorter2Pairs) {
  Analyzer a(Stopwords::none());
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"running", "run"},     {"generously", "generous"}, {"consign", "consign"},
      {"consigned", "consign"}, {"knightly", "knight"},   {"dying", "die"},
      {"skies", "sky"},       {"news", "news"},           {"communism", "communism"},
      {"caresses", "caress"}, {"ponies", "poni"},         {"agreed", "agre"},
      {"hopping", "hop"},     {"happy", "happi"},         {"relational", "relat"},
      {"generation", "generat"}, {"communities", "communiti"}, {"proceed", "proceed"},
      {"inning", "inning"},   {"early", "earli"},         {"atlas", "atlas"},
  };
  for (const auto& [word, stem] : pairs) EXPECT_EQ(a.analyze(word), (Terms{stem})) << word;
}

TEST(AnalyzerStem, ForEachTermMatchesAnalyze) {
  Analyzer a;
  const std::string text = "The quick brown foxes jumped over the lazy dogs' kennels; Ünïcödé too.";
  Terms seen;
  a.for_each_term(text, [&](std::string_view t) { seen.emplace_back(t); });
  EXPECT_EQ(seen, a.analyze(text));
  EXPECT_EQ(seen, (Terms{"quick", "brown", "fox", "jump", "over", "lazi", "dog", "kennel", "ünïcödé", "too"}));
}

TEST(AnalyzerMemo, ColdAndWarmMemoGiveTheSameTerms) {
  const std::string text =
      "Generously running knights were dying under the skies; generously RUNNING knights...";
  Analyzer warm;
  const Terms first = warm.analyze(text);
  EXPECT_EQ(warm.analyze(text), first);
  Analyzer cold;
  EXPECT_EQ(cold.analyze(text), first);
  // Word by word on a third instance: no dependence on neighbouring tokens.
  Analyzer single;
  Terms one_by_one;
  for (const std::string w : {"generously", "running", "knights", "were", "dying", "under", "skies",
                              "generously", "running", "knights"})
    for (auto& t : single.analyze(w)) one_by_one.push_back(t);
  EXPECT_EQ(one_by_one, first);
}

TEST(AnalyzerMemo, StaysCorrectWhenTheMemoOverflowsAndIsCleared) {
  // Far more distinct tokens than the memo keeps, with repeats, so that some
  // lookups hit, some miss, and the memo is cleared several times.
  std::string text;
  std::vector<std::string> words;
  for (int i = 0; i < 300000; ++i) {
    std::string w = "w" + std::to_string(i % 150000) + (i % 3 == 0 ? "ing" : "ed");
    text += w;
    text += ' ';
    words.push_back(std::move(w));
  }
  Analyzer a;
  const Terms all = a.analyze(text);
  ASSERT_EQ(all.size(), words.size());
  Analyzer b;
  for (std::size_t i = 0; i < words.size(); i += 997) EXPECT_EQ(b.analyze(words[i]), (Terms{all[i]}));
  EXPECT_EQ(a.analyze(text), all);
}

TEST(AnalyzerMemo, TokensAroundTheMemoLengthLimitStemConsistently) {
  // Short tokens are memoized, long ones are not; both paths must agree with
  // a fresh analyzer, on first sight and on repeats.
  Analyzer a;
  for (std::size_t len = 30; len <= 50; ++len) {
    const std::string word = std::string(len, 'k') + "nesses";
    const Terms fresh = Analyzer().analyze(word);
    ASSERT_EQ(fresh.size(), 1u);
    EXPECT_EQ(fresh[0], std::string(len, 'k') + "ness") << len;
    EXPECT_EQ(a.analyze(word), fresh) << len;
    EXPECT_EQ(a.analyze(word + " " + word), (Terms{fresh[0], fresh[0]})) << len;
  }
}

// (term, number) pairs of text.
std::vector<std::pair<std::string, std::uint32_t>> numbered(Analyzer& a, std::string_view text) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  a.for_each_numbered_term(text, [&](std::string_view t, std::uint32_t n) { out.emplace_back(t, n); });
  return out;
}

TEST(AnalyzerNumbers, OneNumberPerTermDenseInFirstSeenOrder) {
  Analyzer a;
  const std::string long_word = std::string(45, 'z') + "ing";  // past the memo's length limit
  const std::string text = "Running runs the runner; " + long_word + " cats RUNNING cat " + long_word;
  const auto terms = numbered(a, text);
  Terms texts;
  for (const auto& [t, n] : terms) texts.push_back(t);
  EXPECT_EQ(texts, Analyzer().analyze(text));  // the same terms as for_each_term
  using P = std::pair<std::string, std::uint32_t>;
  const std::string long_stem = Analyzer().analyze(long_word).at(0);
  // A token too long for the memo gives no number.
  const std::uint32_t none = Analyzer::kNoNumber;
  EXPECT_EQ(terms, (std::vector<P>{{"run", 0}, {"run", 0}, {"runner", 1}, {long_stem, none}, {"cat", 2}, {"run", 0},
                                   {"cat", 2}, {long_stem, none}}));
  const std::uint64_t numbering = a.term_numbering();
  EXPECT_EQ(numbered(a, "cat dogs"), (std::vector<P>{{"cat", 2}, {"dog", 3}}));
  EXPECT_EQ(a.term_numbering(), numbering);
  EXPECT_NE(Analyzer().term_numbering(), numbering);  // each analyzer numbers on its own
}

TEST(AnalyzerNumbers, StartOverPastAMillionTermsUnderANewNumbering) {
  Analyzer a;
  const std::uint64_t first = a.term_numbering();
  std::uint32_t expected = 0;
  bool started_over = false;
  for (int i = 0; i < 1100000; ++i) {
    const auto terms = numbered(a, "w" + std::to_string(i) + "q");
    ASSERT_EQ(terms.size(), 1u);
    if (a.term_numbering() != first && !started_over) {
      started_over = true;
      EXPECT_EQ(i, 1 << 20) << "the numbering holds a million terms";
      expected = 0;
    }
    ASSERT_EQ(terms[0].second, expected++) << i;
    // Memo hits keep the number: the word again, then an older one.
    if (i % 50000 == 0) {
      ASSERT_EQ(numbered(a, "w" + std::to_string(i) + "q")[0].second, terms[0].second);
    }
  }
  ASSERT_TRUE(started_over);
  // A word of the first numbering is numbered anew, and keeps that number.
  const std::uint32_t again = numbered(a, "w7q")[0].second;
  EXPECT_EQ(again, expected);
  EXPECT_EQ(numbered(a, "w7q w7q"), (std::vector<std::pair<std::string, std::uint32_t>>{{"w7q", again}, {"w7q", again}}));
}

TEST(AnalyzerMove, MovedAnalyzerKeepsWorking) {
  Analyzer a(Stopwords::none());
  EXPECT_EQ(a.analyze("the runners"), (Terms{"the", "runner"}));
  Analyzer b(std::move(a));
  EXPECT_EQ(b.analyze("the runners"), (Terms{"the", "runner"}));
  EXPECT_EQ(b.stopwords(), Stopwords::none());
  Analyzer c;
  c = std::move(b);
  EXPECT_EQ(c.analyze("the runners"), (Terms{"the", "runner"}));
}

}  // namespace
