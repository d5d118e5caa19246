package parse

import "testing"

func TestRustFacts(t *testing.T) {
	src := `use crate::a::b::C;
use crate::a::b::C as D;
use a::b::{c, d::e};
use a::b::*;
use foo;
pub use self::shapes::Circle;
use super::{x::{Y, Z}, w as v};
mod m;
extern crate serde;

/// A point.
#[derive(Debug, Clone)]
pub struct Point {
    pub x: f64,
    origin: &'static Point,
    next: Option<Box<Point>>,
}

pub enum Kind { A, B }
union Bits { i: u32, f: f32 }

pub trait Shape: Named + fmt::Debug {
    fn area(&self) -> f64;
    fn describe(&self) -> String {
        self.name()
    }
}

impl Point {
    pub fn new(x: f64) -> Self {
        Point { x, origin: &ORIGIN, next: None }
    }

    fn helper(&self, other: &Point, reg: &mut Registry) -> Option<f64> {
        self.other();
        other.distance(self);
        Point::new(1.0);
        crate::geo::dist(1.0);
        parse::<u8>("1");
        Vec::<u8>::new();
        println!("{}", not_a_call(1));
        None
    }
}

impl<T: Clone> Shape for Wrapper<T> {
    fn area(&self) -> f64 { 0.0 }
}

pub mod inner {
    pub fn nested() {}
    impl super::Point {
        fn in_mod(&self) {}
    }
}

#[test]
fn plain_test() {}

#[tokio::test]
async fn async_test() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic]
    fn it_works() {
        let p: Point = make();
        let q = Point::new(2.0);
        let r = Point { x: 1.0 };
        let mut s = build()?;
        q.helper(&p);
    }
}

static ORIGIN: Point = Point { x: 0.0 };

extern "C" {
    fn ext(ctx: *mut Ctx);
}
`
	f := parseSrc(t, "rust", "src/lib.rs", src)
	checkFacts(t, f, []string{
		"def class Point L13-17 decorators=derive",
		"def class Kind L19-19",
		"def class Bits L20-20",
		"def class Shape L22-27 bases=Named,fmt.Debug",
		"def func Shape.area L23-23",
		"def func Shape.describe L24-26 result=String",
		"def func Point.new L30-32 owner=Point result=Point",
		"def func Point.helper L34-43 owner=Point result=Option",
		"def func Wrapper.area L47-47 owner=Wrapper result=f64",
		"def class inner L50-55",
		"def func inner.nested L51-51",
		"def func inner.Point.in_mod L53-53 owner=Point",
		"def func plain_test L58-58 decorators=test",
		"def func async_test L61-61 decorators=tokio.test",
		"def class tests L64-76 decorators=cfg",
		"def func tests.it_works L69-75 decorators=test,should_panic",
		"import spec=crate::a::b name=C L1",
		"import spec=crate::a::b name=C alias=D L2",
		"import spec=a::b name=c L3",
		"import spec=a::b name=d::e L3",
		"import spec=a::b star L4",
		"import spec=foo L5",
		"import spec=self::shapes name=Circle kind=reexport L6",
		"import spec=super name=x L7",
		"import spec=super name=w alias=v L7",
		"import spec=m kind=mod L8",
		"import spec=serde L9",
		"import spec=super star L65",
		"call self.name L25 in Shape.describe",
		"call self.other L35 in Point.helper",
		"call other.distance L36 in Point.helper",
		"call Point.new L37 in Point.helper",
		"call crate::geo.dist L38 in Point.helper",
		"call parse L39 in Point.helper",
		"call Vec.new L40 in Point.helper",
		"call make L70 in tests.it_works",
		"call Point.new L71 in tests.it_works",
		"call build L73 in tests.it_works",
		"call q.helper L74 in tests.it_works",
		"bind x type=f64 in Point",
		"bind origin type=Point in Point",
		"bind next type=Option in Point",
		"bind i type=u32 in Bits",
		"bind f type=f32 in Bits",
		"bind x type=f64 in Point.new",
		"bind other type=Point in Point.helper",
		"bind reg type=Registry in Point.helper",
		"bind p type=Point in tests.it_works",
		"bind q call=Point.new in tests.it_works",
		"bind r type=Point in tests.it_works",
		"bind s call=build in tests.it_works",
		"bind ORIGIN type=Point in <module>",
	}, []string{
		// macros are not calls, nor is anything in their token trees
		"call println L41 in Point.helper",
		"call not_a_call L41 in Point.helper",
		// extern declarations are neither definitions nor scopes for bindings
		"def func ext L81-81",
		"bind ctx type=Ctx in <module>",
		// a typed let is not also bound to its initialiser
		"bind p call=make in tests.it_works",
		// `mod inner { .. }` is a namespace, not an import
		"import spec=inner kind=mod L50",
		"import spec=tests kind=mod L64",
	})
	if len(f.Imports) != 12 {
		t.Errorf("%d imports, want 12 (one per imported name, no duplicates)", len(f.Imports))
	}
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors in valid Rust", f.SyntaxErrors)
	}
}
