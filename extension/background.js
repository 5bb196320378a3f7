// The service worker: the address-bar keyword "fts". Listeners are added at
// the top level so that Chromium finds them when it wakes the worker.
import { PLAIN_TEXT, XML_MARKUP, enteredTarget, startDescription, suggestionsFor } from './lib/omnibox.js';
import { loadServer } from './lib/settings.js';

// Firefox (which defines browser.runtime.getBrowserInfo) shows descriptions
// as plain text.
const markup = globalThis.browser?.runtime?.getBrowserInfo ? PLAIN_TEXT : XML_MARKUP;

// The text typed last: an answer for older text is not shown over it.
let latest = '';

chrome.omnibox.onInputStarted.addListener(() => {
  chrome.omnibox.setDefaultSuggestion({ description: startDescription(markup) });
});

chrome.omnibox.onInputChanged.addListener(async (text, suggest) => {
  latest = text;
  const { suggestions, defaultDescription } = await suggestionsFor(text, await loadServer(), markup);
  if (text !== latest) return;
  chrome.omnibox.setDefaultSuggestion({ description: defaultDescription });
  suggest(suggestions);
});

chrome.omnibox.onInputEntered.addListener(async (text, disposition) => {
  const url = await enteredTarget(text, await loadServer());
  if (disposition === 'currentTab') {
    await chrome.tabs.update({ url });
  } else {
    await chrome.tabs.create({ url, active: disposition === 'newForegroundTab' });
  }
});

// For a look from the worker's console (and the tests): the same functions
// the listeners call, with the configured server (plain: the descriptions
// Firefox gets).
globalThis.fts = {
  suggestionsFor: async (text, { plain = false } = {}) =>
    suggestionsFor(text, await loadServer(), plain ? PLAIN_TEXT : markup),
  enteredTarget: async (text) => enteredTarget(text, await loadServer()),
};
