// The page's word to mkdocs-material's deferred search worker (search-deferred.js) that the
// reader is about to search. Material creates that worker itself and gives the page no handle to
// it, so the word goes by a BroadcastChannel of the site's origin, under this name.

export const SEARCH_START_CHANNEL = "calculators-search-start";
export const SEARCH_START = "start";
