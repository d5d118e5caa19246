package search

// Chunking of files without definitions.
const (
	// ChunkLines is the length of a text chunk in lines.
	ChunkLines = 50
	// ChunkOverlap is how many lines consecutive chunks share.
	ChunkOverlap = 10
)

// chunkLines cuts lines a..b (1-based, inclusive) into overlapping chunks
// after trimming blank lines at both ends. All chunks share key; their
// ordinals (assigned at indexing) tell them apart.
func chunkLines(content []byte, li *lineIndex, a, b int, key string) []piece {
	for a <= b && blank(li.line(content, a)) {
		a++
	}
	for b >= a && blank(li.line(content, b)) {
		b--
	}
	var out []piece
	for s := a; s <= b; s += ChunkLines - ChunkOverlap {
		e := min(s+ChunkLines-1, b)
		p := piece{typ: ntChunk, key: key, lineA: s, lineB: e, start: li.start(s), end: li.end(e)}
		p.previewAt = p.start
		out = append(out, p)
		if e == b {
			break
		}
	}
	return out
}

// extractText chunks a whole text file.
func extractText(content []byte, li *lineIndex) []piece {
	return chunkLines(content, li, 1, li.lines(), "")
}
