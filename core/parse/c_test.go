package parse

import "testing"

func TestCFacts(t *testing.T) {
	src := `#include "util.h"
#include <stdio.h>
#include "lib/log.h"

struct ops {
    int (*run)(int);
    void (*handler)(struct ctx *c, int);
};

typedef struct {
    int count;
} counter_t;

typedef struct node {
    struct node *next;
} node_t;

enum color { RED, GREEN };
union value { int i; float f; };

int proto(void);
typedef int (*callback)(int);

static int helper(int x) {
    return util_add(x, 1);
}

char *name_of(int id) {
    return lookup(id);
}

static const char **names(void) {
    return 0;
}

int (*pick(void))(int) {
    return helper;
}

void dispatch(struct ops *ops, struct ops local, callback fp) {
    ops->run(1);
    local.handler(0, 2);
    fp(3);
    (*fp)(4);
    log_msg("x");
    printf("%d\n", helper(5));
}

static void broken(int x {
    first();
}

void after_error(void) {
    second();
}

#ifdef DEBUG
void debug_only(void) { third(); }
#endif
node_t *make_node(void) { return 0; }
struct ops *get_ops(void) { return 0; }
`
	f := parseSrc(t, "c", "src/dispatch.c", src)
	checkFacts(t, f, []string{
		"def class ops L5-8",
		"def class counter_t L10-12",
		"def class node L14-16",
		"def class color L18-18",
		"def class value L19-19",
		"def func helper L24-26",
		"def func name_of L28-30",
		"def func names L32-34",
		"def func pick L36-38",
		"def func dispatch L40-47",
		"def func broken L49-51",
		"def func after_error L53-55",
		"def func debug_only L58-58",
		"def func make_node L60-60 result=node_t",
		"def func get_ops L61-61 result=ops",
		"import spec=util.h L1",
		"import spec=<stdio.h> kind=include_system L2",
		"import spec=lib/log.h L3",
		"call util_add L25 in helper",
		"call lookup L29 in name_of",
		"call ops.run L41 in dispatch",
		"call local.handler L42 in dispatch",
		"call fp L43 in dispatch",
		"call log_msg L45 in dispatch",
		"call printf L46 in dispatch",
		"call helper L46 in dispatch",
		"call first L50 in broken",
		"call second L54 in after_error",
		"call third L58 in debug_only",
	}, []string{
		// prototypes and function-pointer typedefs are not definitions
		"def func proto L21-21",
		"def func callback L22-22",
		"def class callback L22-22",
		// a named struct in a typedef is defined once, under its own name
		"def class node_t L14-16",
		// calls through a pointer expression name no function
		"call fp L44 in dispatch",
		// primitive results type nothing
		"def func helper L24-26 result=int",
	})
	if f.SyntaxErrors == 0 {
		t.Errorf("syntax error in broken() not counted")
	}
}

func TestCppFacts(t *testing.T) {
	src := `#include "shape.hpp"
#include <memory>

namespace geo {
namespace detail { int twice(int x) { return 2 * x; } }

class Shape {
public:
    virtual ~Shape();
    virtual double area() const = 0;
    void describe() const;
protected:
    double scale() const { return 1.0; }
    Logger* log_;
    std::string name_;
    int count_ = 0;
};

class Circle : public Shape, private ns::Mixin<Circle> {
public:
    Circle(double r) : Shape(), r_(r) {}
    double area() const override;
    static Circle* make(double r);
private:
    double r_;
};

struct Point { int x; };
}

double geo::Circle::area() const {
    return this->scale() * helper() * geo::detail::twice(1);
}

Circle::Circle() {}
Circle::~Circle() {}
Circle* Circle::make(double r) { return new Circle(r); }
const std::string& Circle::name() const { return name_; }

template <typename T>
T biggest(T a, T b) { return make<T>(a); }

template <typename T>
class Box {
    T value_;
public:
    T get() { return value_; }
};

bool operator==(const Point& a, const Point& b) { return a.x == b.x; }

int run(const Circle& c, Shape* s, Shape&& moved, std::string label = "") {
    Circle local(1.0);
    Circle* heap = new Circle(2.0);
    auto other = new geo::Circle(3.0);
    auto made = Circle::make(4.0);
    auto plain = build();
    auto owned = std::make_unique<Circle>(5.0);
    Point pt{1};
    local.area();
    heap->describe();
    s->area();
    ns::helper();
    ::global();
    obj.tmpl<int>();
    auto fn = [](Circle& inner) { inner.area(); };
    return 0;
}

int proto(Circle* never);
`
	f := parseSrc(t, "cpp", "src/shape.cpp", src)
	checkFacts(t, f, []string{
		"def class geo L4-29",
		"def class geo.detail L5-5",
		"def func geo.detail.twice L5-5",
		"def class geo.Shape L7-17",
		"def func geo.Shape.scale L13-13",
		"def class geo.Circle L19-26 bases=Shape,ns.Mixin",
		"def func geo.Circle.Circle L21-21",
		"def class geo.Point L28-28",
		"def func geo.Circle.area L31-33 owner=geo.Circle",
		"def func Circle.Circle L35-35 owner=Circle",
		"def func Circle.~Circle L36-36 owner=Circle",
		"def func Circle.make L37-37 owner=Circle result=Circle",
		"def func Circle.name L38-38 owner=Circle result=std.string",
		"def func biggest L41-41 result=T",
		"def class Box L44-48",
		"def func Box.get L47-47 result=T",
		"def func operator== L50-50",
		"def func run L52-68",
		"import spec=shape.hpp L1",
		"import spec=<memory> kind=include_system L2",
		"call Shape L21 in geo.Circle.Circle new",
		"call r_ L21 in geo.Circle.Circle new",
		"call this.scale L32 in geo.Circle.area",
		"call helper L32 in geo.Circle.area",
		"call geo::detail.twice L32 in geo.Circle.area",
		"call Circle L37 in Circle.make new",
		"call make L41 in biggest",
		"call Circle L53 in run new",
		"call Circle L54 in run new",
		"call geo.Circle L55 in run new",
		"call Circle.make L56 in run",
		"call build L57 in run",
		"call std.make_unique L58 in run",
		"call Point L59 in run new",
		"call local.area L60 in run",
		"call heap.describe L61 in run",
		"call s.area L62 in run",
		"call ns.helper L63 in run",
		"call global L64 in run",
		"call obj.tmpl L65 in run",
		"call inner.area L66 in run",
		"bind log_ type=Logger in geo.Shape",
		"bind name_ type=std.string in geo.Shape",
		"bind a type=T in biggest",
		"bind b type=T in biggest",
		"bind value_ type=T in Box",
		"bind a type=Point in operator==",
		"bind b type=Point in operator==",
		"bind c type=Circle in run",
		"bind s type=Shape in run",
		"bind moved type=Shape in run",
		"bind label type=std.string in run",
		"bind local type=Circle in run",
		"bind heap type=Circle in run",
		"bind other type=geo.Circle in run",
		"bind made call=Circle.make in run",
		"bind plain call=build in run",
		"bind owned type=Circle in run",
		"bind pt type=Point in run",
		"bind inner type=Circle in run",
	}, []string{
		// in-class declarations without a body are not definitions
		"def func geo.Shape.area L10-10",
		"def func geo.Shape.describe L11-11",
		"def func geo.Circle.make L23-23",
		// nor are prototypes, whose parameters bind nothing
		"def func proto L70-70",
		"bind never type=Circle in <module>",
		// `auto` is no type
		"bind made type=auto in run",
		"def func Circle.make L37-37 owner=Circle result=auto",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors in valid C++", f.SyntaxErrors)
	}
}
