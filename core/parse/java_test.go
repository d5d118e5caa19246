package parse

import "testing"

func TestJavaFacts(t *testing.T) {
	src := `package com.shop.model;

import java.util.List;
import com.shop.util.*;
import static com.shop.util.Util.fmt;
import static org.junit.Assert.*;

@Entity
public class Cart<T> extends Base<T> implements Iterable<T>, com.x.Savable {
    private Repo repo = new Repo();
    private final List<Item> items, others;
    private int count;

    public Cart(Repo repo) {
        super(repo);
        this.repo = repo;
    }

    Cart() {
        this(new Repo());
    }

    @Override
    @org.junit.Test
    public <U> List<U> add(final Item item, int n) throws Exception {
        validate(item);
        this.validate(item);
        super.add(item);
        Util.fmt("x");
        this.repo.save(item);
        Repo r = new Repo();
        r.save(item);
        var r2 = new com.shop.Repo<String>();
        var r3 = makeRepo();
        Outer.super.m();
        for (Item it : items) {
            it.go();
        }
        items.forEach(Item::name);
        return null;
    }

    static class Inner {
        void run() {
            Object o = new Runnable() {
                public void run() {}
            };
        }
    }
}

interface Svc extends A, B {
    void run();
    Result count();
}

enum Color implements I {
    RED;
    void f() {}
}

record Pt(int x, Repo y) implements I {
    Pt {}
}
`
	f := parseSrc(t, "java", "src/main/java/com/shop/model/Cart.java", src)
	checkFacts(t, f, []string{
		"package com.shop.model",
		// types: nesting, bases (generics stripped, one per type), annotations
		"def class Cart L8-50 bases=Base,Iterable,com.x.Savable decorators=Entity",
		"def class Cart.Inner L43-49",
		"def class Svc L52-55 bases=A,B",
		"def class Color L57-60 bases=I",
		"def class Pt L62-64 bases=I",
		// constructors are named after the class; overloads get #2
		"def func Cart.Cart L14-17",
		"def func Cart.Cart#2 L19-21",
		"def func Pt.Pt L63-63",
		"def func Cart.add L23-41 result=List decorators=Override,org.junit.Test",
		"def func Cart.Inner.run L44-48",
		// interface methods have no body
		"def func Svc.run L53-53",
		"def func Svc.count L54-54 result=Result",
		"def func Color.f L59-59",
		"import spec=java.util.List L3",
		"import spec=com.shop.util star L4",
		"import spec=com.shop.util.Util.fmt kind=static L5",
		"import spec=org.junit.Assert star kind=static L6",
		"call Repo L10 in Cart new",
		"call super L15 in Cart.Cart",
		"call this L20 in Cart.Cart#2 new",
		"call Repo L20 in Cart.Cart#2 new",
		"call validate L26 in Cart.add",
		"call this.validate L27 in Cart.add",
		"call super.add L28 in Cart.add",
		"call Util.fmt L29 in Cart.add",
		"call this.repo.save L30 in Cart.add",
		"call Repo L31 in Cart.add new",
		"call r.save L32 in Cart.add",
		"call com.shop.Repo L33 in Cart.add new",
		"call makeRepo L34 in Cart.add",
		"call super.m L35 in Cart.add",
		"call it.go L37 in Cart.add",
		"call items.forEach L39 in Cart.add",
		"call Item.name L39 in Cart.add",
		"call Runnable L45 in Cart.Inner.run new",
		"bind repo type=Repo in Cart",
		"bind items type=List in Cart",
		"bind others type=List in Cart",
		"bind repo type=Repo in Cart.Cart",
		"bind item type=Item in Cart.add",
		"bind r type=Repo in Cart.add",
		"bind r2 type=com.shop.Repo in Cart.add",
		"bind r3 call=makeRepo in Cart.add",
		"bind it type=Item in Cart.add",
		"bind y type=Repo in Pt",
	}, []string{
		"import spec=com.shop.util L4",
		"import spec=com.shop.util.Util.fmt L5",
		"call Outer.m L35 in Cart.add",
		"call super L15 in Cart.Cart new",
		"def func Cart.add L23-41 result=void",
		"bind count type=int in Cart",
		"bind n type=int in Cart.add",
		"bind r2 type=var in Cart.add",
		"bind r3 type=var in Cart.add",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors", f.SyntaxErrors)
	}
}

// TestJavaBindingForms covers the less common typed declarations.
func TestJavaBindingForms(t *testing.T) {
	src := `class B {
    B(int x) { this.repo = new Repo(); }
    void f(Cart c, int[] xs, String... rest) {
        Repo[] rs = new Repo[3];
        try (Res res = open()) {
        } catch (IOException e) {
        } catch (A | B ab) {
        }
        if (o instanceof Repo rr) { rr.save(); }
        for (var v : vs) { }
        Runnable run = Foo::new;
        Collections.<String>emptyList();
        outer.new Inner();
    }
}
`
	f := parseSrc(t, "java", "B.java", src)
	checkFacts(t, f, []string{
		"bind this.repo type=Repo in B.B",
		"bind c type=Cart in B.f",
		"bind res type=Res in B.f",
		"bind e type=IOException in B.f",
		"bind rr type=Repo in B.f",
		"bind run type=Runnable in B.f",
		"call Foo L11 in B.f new",
		"call Collections.emptyList L12 in B.f",
		"call Inner L13 in B.f new",
		"call rr.save L9 in B.f",
	}, []string{
		"bind xs type=int in B.f",
		"bind rs type=Repo in B.f",
		"bind rest type=String in B.f",
		"bind ab type=A in B.f",
		"bind v type=var in B.f",
	})
}
