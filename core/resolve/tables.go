package resolve

import (
	"slices"
	"sort"
	"strings"

	"github.com/ccd-dev/ccd/core/facts"
)

// dropDefs removes fi's definitions, as f (the facts they were listed
// from) describes them, from the name tables.
func (r *resolver) dropDefs(fi *fileInfo, f *facts.File) {
	drop := func(m map[string][]defRef, key string) {
		list := m[key]
		kept := make([]defRef, 0, len(list))
		for _, d := range list {
			if d.fi != fi {
				kept = append(kept, d)
			}
		}
		if len(kept) == len(list) {
			return
		}
		if len(kept) == 0 {
			delete(m, key)
		} else {
			m[key] = kept
		}
	}
	for i := range f.Defs {
		d := &f.Defs[i]
		switch t, name := defTable(f, i); t {
		case tableClass:
			drop(r.classes, name)
			drop(r.quals, qualKey(f.Lang, d.Qual))
		case tableOwned:
			drop(r.owned, d.Owner)
			drop(r.methods, name)
		case tableMethod:
			drop(r.methods, name)
		case tableFunc:
			drop(r.funcs, name)
		}
	}
}

// insertDefs lists fi's definitions in the name tables, at the place a
// build in path order would have put them.
func (r *resolver) insertDefs(fi *fileInfo) {
	tables := [...]map[string][]defRef{r.classes, r.quals, r.owned, r.methods, r.funcs}
	type key struct {
		table int
		key   string
	}
	var order []key
	refs := map[key][]defRef{}
	add := func(table int, k string, ref defRef) {
		kk := key{table, k}
		if _, ok := refs[kk]; !ok {
			order = append(order, kk)
		}
		refs[kk] = append(refs[kk], ref)
	}
	f := fi.f
	for i := range f.Defs {
		d := &f.Defs[i]
		ref := defRef{fi, i}
		switch t, name := defTable(f, i); t {
		case tableClass:
			add(0, name, ref)
			add(1, qualKey(f.Lang, d.Qual), ref)
		case tableOwned:
			add(2, d.Owner, ref)
			add(3, name, ref)
		case tableMethod:
			add(3, name, ref)
		case tableFunc:
			add(4, name, ref)
		}
	}
	p := f.Path
	for _, kk := range order {
		m := tables[kk.table]
		list := m[kk.key]
		at := sort.Search(len(list), func(k int) bool { return list[k].fi.f.Path > p })
		merged := make([]defRef, 0, len(list)+len(refs[kk]))
		merged = append(merged, list[:at]...)
		merged = append(merged, refs[kk]...)
		merged = append(merged, list[at:]...)
		m[kk.key] = merged
	}
}

// listIndex returns where path p is, or belongs, in r.list.
func (r *resolver) listIndex(p string) (int, bool) {
	i := sort.Search(len(r.list), func(k int) bool { return r.list[k].f.Path >= p })
	return i, i < len(r.list) && r.list[i].f.Path == p
}

// rebind binds a file's imports afresh (forgetting which files of a
// package its last resolution used).
func (r *resolver) rebind(fi *fileInfo) {
	fi.binds, fi.stars, fi.imports = map[string]*binding{}, nil, nil
	r.bindImports(fi)
}

// updatePackage brings a package's merged tables up to date after fi's
// facts changed from old (fi is in the package, before and after).
func (r *resolver) updatePackage(key string, fi *fileInfo, old *facts.File) {
	all, lib, vals := r.pkgTop[key], r.pkgTopLib[key], r.pkgValues[key]
	if all == nil || lib == nil || vals == nil {
		r.indexPackage(key)
		return
	}
	fis := r.pkgs[key]
	test := strings.HasSuffix(fi.f.Path, "_test.go")
	fix := func(m map[string]defRef, name string, tests bool) {
		cur, ok := m[name]
		if ok && cur.fi != fi && better(cur.fi, fi) {
			return // a better file wins
		}
		if ok && cur.fi != fi && len(fi.top[name]) == 0 {
			return // another file won and still does
		}
		// fi held it, or may hold it now (it may have got worse: a
		// build constraint): the best file that defines it
		delete(m, name)
		var best *fileInfo
		for _, o := range fis {
			if (tests || !strings.HasSuffix(o.f.Path, "_test.go")) && len(o.top[name]) > 0 && (best == nil || better(o, best)) {
				best = o
			}
		}
		if best != nil {
			m[name] = defRef{best, best.top[name][0]}
		}
	}
	names := map[string]bool{}
	for i := range old.Defs {
		if d := &old.Defs[i]; d.Parent < 0 && d.Owner == "" {
			names[d.Name] = true
		}
	}
	for name := range fi.top {
		names[name] = true
	}
	for name := range names {
		fix(all, name, true)
		if !test {
			fix(lib, name, false)
		}
	}
	if test {
		return
	}
	has := make(map[string]bool, len(fi.f.Values))
	for _, v := range fi.f.Values {
		has[v] = true
	}
	for _, v := range append(append([]string(nil), old.Values...), fi.f.Values...) {
		cur := vals[v]
		if cur != nil && cur != fi && cur.f.Path < fi.f.Path {
			continue
		}
		if has[v] {
			vals[v] = fi
			continue
		}
		if cur != nil && cur != fi {
			continue
		}
		delete(vals, v)
		for _, o := range fis {
			if !strings.HasSuffix(o.f.Path, "_test.go") && slices.Contains(o.f.Values, v) {
				vals[v] = o
				break
			}
		}
	}
}
