package tokcount

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

var (
	refOnce sync.Once
	refEnc  *tiktoken.Tiktoken
	refErr  error
)

// Reference counts tokens with tiktoken-go itself (offline loader, encoder
// built once). It is about ten times slower than Count and exists to check
// Count against the reference implementation.
func Reference(text string) (int, error) {
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		refEnc, refErr = tiktoken.GetEncoding("cl100k_base")
		if refErr != nil {
			refErr = fmt.Errorf("load cl100k_base: %w", refErr)
		}
	})
	if refErr != nil {
		return 0, refErr
	}
	return len(refEnc.EncodeOrdinary(text)), nil
}

// referenceTokens returns tiktoken-go's tokens of text as strings.
func referenceTokens(text string) ([]string, error) {
	if _, err := Reference(""); err != nil {
		return nil, err
	}
	ids := refEnc.EncodeOrdinary(text)
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = refEnc.Decode([]int{id})
	}
	return out, nil
}
