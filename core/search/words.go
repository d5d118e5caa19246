package search

import "strings"

// Natural-language questions ("where are idle database connections kept")
// carry words no code answers: they are left out of a text query of
// several words, and the other words also match their common English
// forms (connections → connection, connect; parsed → parse, parser).

// stopWords are English function words and question words.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but of to in on at by for from with without into onto
		out up over under about as is are was were be been being am it its it's this that these those there here
		how what where which when why who whom whose does do did done can could should would will shall may might
		must i we you they he she me us them my our your their his her so than then also just very some any all
		each every other such same own not no nor only too again further once both few more most
		find code implement implements implemented implementation implementing function functions method methods
		where's what's whats hows handled handle handles handling logic part place routine responsible happen happens`) {
		stopWords[w] = true
	}
}

// softWords are the stop words code uses too (sync.Once, a file handle,
// an HTTP method): a question keeps them as optional words, which lift
// the handles that hold them but are not missed by those that do not.
var softWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`once again handle handles handled handling method methods function functions
		find code implement implements implemented implementation implementing logic routine part place happen happens
		without same other own few more most only every each all any some out up over under about into`) {
		softWords[w] = true
	}
}

// optionalWeight scales an optional word's score.
const optionalWeight = 0.5

// lightStem strips the common English inflections of a lower-case word:
// plurals, -ed, -ing, -er, -or (leaving five letters: selector → select),
// -ion and a final e, undoubling a final
// consonant (stopped → stop), so that the forms of one word share it.
// Words of three letters or fewer are their own stem.
func lightStem(w string) string {
	if len(w) <= 3 || !isAlpha(w) {
		return w
	}
	s := w
	switch {
	case (strings.HasSuffix(s, "ies") || strings.HasSuffix(s, "ied")) && len(s) > 4:
		s = s[:len(s)-2] // queries, queried → queri (as query → queri below)
	case strings.HasSuffix(s, "sses"):
		s = s[:len(s)-2]
	case strings.HasSuffix(s, "ss"):
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "us") && !strings.HasSuffix(s, "is"):
		s = s[:len(s)-1]
	}
	for _, suf := range []string{"ations", "ation", "ions", "ion", "ings", "ing", "ers", "er", "ors", "or", "ed", "es"} {
		least := 3
		if suf[0] == 'o' {
			least = 5 // selector → select, editor stays (not "edit"), author not "auth"
		}
		if strings.HasSuffix(s, suf) && len(s)-len(suf) >= least {
			s = s[:len(s)-len(suf)]
			if n := len(s); n >= 4 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouls", rune(s[n-1])) {
				s = s[:n-1] // stopp → stop, but keep "fill", "pass"
			}
			break
		}
	}
	switch n := len(s); {
	case n > 3 && s[n-1] == 'e':
		s = s[:n-1]
	case n > 3 && s[n-1] == 'y' && !strings.ContainsRune("aeiou", rune(s[n-2])):
		s = s[:n-1] + "i" // query → queri, as queries
	}
	return s
}

func isAlpha(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// variantSuffixes are the endings tried on a stem to find a word's other
// forms in the dictionary.
var variantSuffixes = []string{"", "e", "s", "es", "ed", "ing", "er", "ers", "ion", "ions", "ation", "ations", "y", "ies", "ied", "ings"}

// variants returns the dictionary's other forms of w (same light stem),
// at most a dozen. The caller holds the read lock.
func (ix *Index) variants(w string) []uint32 {
	s := lightStem(w)
	if s == w && len(w) <= 3 {
		return nil
	}
	var out []uint32
	seen := map[string]bool{w: true}
	try := func(form string) {
		if seen[form] {
			return
		}
		seen[form] = true
		if t, ok := ix.dict[form]; ok && lightStem(form) == s {
			out = append(out, t)
		}
	}
	for _, suf := range variantSuffixes {
		try(s + suf)
		if n := len(s); n >= 3 && suf != "" && strings.ContainsRune("aeiou", rune(suf[0])) && !strings.ContainsRune("aeiouwxy", rune(s[n-1])) {
			try(s + s[n-1:] + suf) // stop → stopped, stopping
		}
	}
	if strings.HasSuffix(s, "i") {
		try(s[:len(s)-1] + "y") // queri → query
	}
	if len(out) > 12 {
		out = out[:12]
	}
	return out
}
