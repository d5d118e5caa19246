package search

import "testing"

func TestSmoke(t *testing.T) {
	fx := build(t, unpack(t, "corpus.txtar"))
	for _, q := range []QueryParams{
		{Pattern: "ServeHTTP"},
		{Symbol: "AuthController"},
		{Symbol: "authenticate", Kind: "reference"},
		{Section: "Installation"},
		{Pattern: "quartermaster ledger"},
		{Parent: "Server"},
	} {
		r, err := fx.ix.Query(q, GraphRefs(fx.res.Graph))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v\n%s", q, mustJSON(t, r))
	}
}
