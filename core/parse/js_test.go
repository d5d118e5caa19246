package parse

import (
	"testing"

	"github.com/ccd-dev/ccd/core/facts"
)

func TestJavaScriptFacts(t *testing.T) {
	src := `import React, { useState as useS } from 'react';
import * as path from 'path';
import './polyfill';
export { render as draw, mount } from './dom';
export * from './util';
export * as helpers from './helpers';
const fs = require('fs');
const { readFile, writeFile: write } = require('fs/promises');
const join = require('path').join;
require('./register');

@sealed
class Widget extends React.Component {
  state = new Store();
  onClick = (e) => {
    this.props.onSelect?.(e.id);
  };
  static create = function () {};

  constructor(props) {
    super(props);
    this.cache = new Map();
    this.loader = makeLoader(props);
  }

  @bound render() {
    const items = this.cache.values();
    return <List.View items={items}><Item key="a" /><span>{helper()}</span></List.View>;
  }

  #secret() { return this.#secret(); }
  *entries() {}
  get size() { return 0; }
}

function* ids() { yield 1; }

async function load(url) {
  const res = await fetch(url);
  const mod = await import('./lazy.js');
  import('./side-effect.js');
  const w = new Widget({});
  w.render();
  function parse(text) {
    return JSON.parse(text);
  }
  return parse(await res.text());
}

const handler = async (req) => { await load(req.url); };
const legacy = function () { return ids(); };

exports.start = function () { return handler(); };
module.exports.stop = () => {};
Widget.prototype.reset = function () { this.cache.clear(); };

const api = {
  get(id) { return load(id); },
  remove: function (id) {},
  list: () => [],
};

const C = class extends Base {};

a.b?.c();
obj?.method();
new ns.Thing();
load(
`
	f := parseSrc(t, "javascript", "web/widget.jsx", src)
	checkFacts(t, f, []string{
		// classes: extends a member expression, decorators, class expressions
		"def class Widget L12-34 bases=React.Component decorators=sealed",
		"def class C L63-63 bases=Base",
		// methods, the constructor, fields holding functions, private,
		// generator and accessor methods
		"def func Widget.onClick L15-17",
		"def func Widget.create L18-18",
		"def func Widget.constructor L20-24",
		"def func Widget.render L26-29 decorators=bound",
		"def func Widget.#secret L31-31 result==this.#secret()",
		"def func Widget.entries L32-32",
		"def func Widget.size L33-33",
		// functions: generator, nested, arrow and function expressions bound
		// to names, CommonJS exports, prototype methods, object literals
		"def func ids L36-36",
		"def func load L38-48 result==parse(await res.text())",
		"def func load.parse L44-46 result==JSON.parse(text)",
		"def func handler L50-50",
		"def func legacy L51-51 result==ids()",
		"def func start L53-53 result==handler()",
		"def func stop L54-54",
		"def func Widget.reset L55-55 owner=Widget",
		"def func api.get L58-58 owner=api result==load(id)",
		"def func api.remove L59-59 owner=api",
		"def func api.list L60-60 owner=api",
		// ES imports and re-exports
		"import spec=react alias=React kind=default L1",
		"import spec=react name=useState alias=useS L1",
		"import spec=path alias=path L2",
		"import spec=./polyfill L3",
		"import spec=./dom name=render alias=draw kind=reexport L4",
		"import spec=./dom name=mount kind=reexport L4",
		"import spec=./util star kind=reexport L5",
		"import spec=./helpers alias=helpers kind=reexport L6",
		// CommonJS
		"import spec=fs alias=fs kind=require L7",
		"import spec=fs/promises name=readFile kind=require L8",
		"import spec=fs/promises name=writeFile alias=write kind=require L8",
		"import spec=path name=join alias=join kind=require L9",
		"import spec=./register kind=require L10",
		// dynamic import, bound to a name or not
		"import spec=./lazy.js alias=mod L40",
		"import spec=./side-effect.js L41",
		// calls: decorators, new, this, optional chaining, super, private
		"call sealed L12 in Widget",
		"call Store L14 in Widget new",
		"call this.props.onSelect L16 in Widget.onClick",
		"call super L21 in Widget.constructor",
		"call Map L22 in Widget.constructor new",
		"call makeLoader L23 in Widget.constructor",
		"call bound L26 in Widget.render",
		"call this.cache.values L27 in Widget.render",
		"call this.#secret L31 in Widget.#secret",
		"call fetch L39 in load",
		"call Widget L42 in load new",
		"call w.render L43 in load",
		"call JSON.parse L45 in load.parse",
		"call parse L47 in load",
		"call res.text L47 in load",
		"call load L50 in handler",
		"call ids L51 in legacy",
		"call handler L53 in start",
		"call this.cache.clear L55 in Widget.reset",
		"call load L58 in api.get",
		"call a.b.c L65 in <module>",
		"call obj.method L66 in <module>",
		"call ns.Thing L67 in <module> new",
		// JSX components; <span> is an element
		"call List.View L28 in Widget.render",
		"call Item L28 in Widget.render",
		"call helper L28 in Widget.render",
		// bindings: fields, this.x in the constructor, locals
		"bind state type=Store in Widget",
		"bind this.cache type=Map in Widget.constructor",
		"bind this.loader call=makeLoader in Widget.constructor",
		"bind items call=this.cache.values in Widget.render",
		"bind res call=fetch in load",
		"bind w type=Widget in load",
	}, []string{
		"call span L28 in Widget.render",
		"bind fs call=require in <module>",
		"bind join call=require in <module>",
		"import spec=fs L7",
		"def func parse L44-46",
	})
	checkSignatures(t, f, map[string]string{
		"Widget.render": "@bound render()",
		"handler":       "handler = async (req) =>",
		"start":         "exports.start = function ()",
		"Widget.reset":  "Widget.prototype.reset = function ()",
	})
	if f.SyntaxErrors == 0 {
		t.Errorf("the unfinished call on the last line was not counted as a syntax error")
	}
}

func TestTypeScriptFacts(t *testing.T) {
	src := `import type { Config } from './config';
import { type Plugin, load as loadPlugin } from '@app/plugins';
import Default, * as everything from './all';
import legacy = require('./legacy');
export type { Shape } from './shapes';
export * from './reexported';

@Injectable({ providedIn: 'root' })
export class OrderService extends BaseService<Order> implements OnInit, ns.Disposable {
  private repo: OrderRepo;
  protected cache?: Cache | undefined;
  readonly clock = new Clock();
  items: Order[] = [];
  onChange = (o: Order): void => { this.notify(o); };

  constructor(private readonly http: HttpClient, public log: Logger, plain: Options) {
    super(http);
    this.queue = new Queue<Order>();
  }

  @Input() @Other()
  async find(id: string, opts?: FindOptions): Promise<Order | undefined> {
    const o = await this.repo.get(id);
    return o;
  }

  process(o: Order): void;
  process(o: Order[]): void;
  process(o: Order | Order[]): void {
    const list: Order[] = [];
    const first = list[0] as Order;
    const cfg = <Config>this.settings;
    const typed: Repo = new SqlRepo();
    const made = createOrder();
    legacy.run(first, cfg);
    everything.helper();
  }

  list(): Order[] { return []; }
  current(): Order | null { return null; }
  static of(): OrderService { return new OrderService(null!, null!, {}); }
  *iter(): Iterator<Order> {}
}

export abstract class BaseService<T> {
  abstract find(id: string): Promise<T | undefined>;
  protected notify(x: T): void { console.log(x); }
}

export interface Repo extends Base<Order>, Closeable {
  get(id: string): Promise<Order>;
  size: number;
  (x: number): string;
  new (x: number): Repo;
}

type Handler = {
  handle(e: Event): boolean;
  name: string;
};

export enum Status { Open = 'open', Closed = 'closed' }

export namespace Geometry.Shapes {
  export class Circle {
    area(): number { return Math.PI; }
  }
  export function unit(): Circle { return new Circle(); }
}

declare module 'external' {
  export function ext(): void;
}

declare function globalFn(x: number): Widget;
declare class Ambient {
  method(a: string): Result;
}

function withCallback(cb: (item: Order) => void, opts: { key: Key }): Map<string, Order> {
  return new Map();
}

export const compute = async (input: Input): Promise<Output> => transform(input);
export const plain = function (x: number): number { return x; };
`
	f := parseSrc(t, "typescript", "src/orders.ts", src)
	checkFacts(t, f, []string{
		// classes: decorator on the export, extends with type arguments,
		// implements (qualified too)
		"def class OrderService L9-43 bases=BaseService,OnInit,ns.Disposable decorators=Injectable",
		"def func OrderService.onChange L14-14 result=void",
		"def func OrderService.constructor L16-19",
		// decorators before a method; Promise<T | undefined> as T
		"def func OrderService.find L22-25 result=Order decorators=Input,Other",
		// the implementation, not its overload signatures
		"def func OrderService.process L29-37 result=void",
		"def func OrderService.list L39-39",
		"def func OrderService.current L40-40 result=Order",
		"def func OrderService.of L41-41 result=OrderService",
		"def func OrderService.iter L42-42 result=Iterator",
		// abstract classes and methods
		"def class BaseService L45-48",
		"def func BaseService.find L46-46 result=T",
		"def func BaseService.notify L47-47 result=void",
		// interfaces, method signatures, type literals, enums, namespaces
		"def class Repo L50-55 bases=Base,Closeable",
		"def func Repo.get L51-51 result=Order",
		"def class Handler L57-60",
		"def func Handler.handle L58-58 result=boolean",
		"def class Status L62-62",
		"def class Geometry.Shapes L64-69",
		"def class Geometry.Shapes.Circle L65-67",
		"def func Geometry.Shapes.Circle.area L66-66 result=number",
		"def func Geometry.Shapes.unit L68-68 result=Circle",
		// ambient declarations
		"def func globalFn L75-75 result=Widget",
		"def class Ambient L76-78",
		"def func Ambient.method L77-77 result=Result",
		"def func withCallback L80-82 result=Map",
		"def func compute L84-84 result=Output",
		"def func plain L85-85 result=number",
		// imports: type-only, inline type, default + namespace, import = require
		"import spec=./config name=Config L1",
		"import spec=@app/plugins name=Plugin L2",
		"import spec=@app/plugins name=load alias=loadPlugin L2",
		"import spec=./all alias=Default kind=default L3",
		"import spec=./all alias=everything L3",
		"import spec=./legacy alias=legacy kind=require L4",
		"import spec=./shapes name=Shape kind=reexport L5",
		"import spec=./reexported star kind=reexport L6",
		// calls
		"call Injectable L8 in <module>",
		"call Clock L12 in OrderService new",
		"call this.notify L14 in OrderService.onChange",
		"call super L17 in OrderService.constructor",
		"call Queue L18 in OrderService.constructor new",
		"call Input L21 in OrderService",
		"call this.repo.get L23 in OrderService.find",
		"call SqlRepo L33 in OrderService.process new",
		"call legacy.run L35 in OrderService.process",
		"call everything.helper L36 in OrderService.process",
		"call OrderService L41 in OrderService.of new",
		"call Circle L68 in Geometry.Shapes.unit new",
		"call transform L84 in compute",
		// bindings: fields (optional, union with undefined, initialised)
		"bind repo type=OrderRepo in OrderService",
		"bind cache type=Cache in OrderService",
		"bind clock type=Clock in OrderService",
		// parameters, parameter properties, optional parameters
		"bind o type=Order in OrderService.onChange",
		"bind http type=HttpClient in OrderService.constructor",
		"bind log type=Logger in OrderService.constructor",
		"bind plain type=Options in OrderService.constructor",
		"bind this.queue type=Queue in OrderService.constructor",
		"bind id type=string in OrderService.find",
		"bind opts type=FindOptions in OrderService.find",
		// locals: await, as, <T>, declared type over constructed, call result
		"bind o call=this.repo.get in OrderService.find",
		"bind first type=Order in OrderService.process",
		"bind cfg type=Config in OrderService.process",
		"bind typed type=Repo in OrderService.process",
		"bind made call=createOrder in OrderService.process",
		"bind x type=T in BaseService.notify",
		"bind size type=number in Repo",
		"bind input type=Input in compute",
	}, []string{
		// overload signatures are not definitions (else the implementation
		// would be process#3) and their parameters bind nothing
		"def func OrderService.process#3 L29-37 result=void",
		"bind o type=Order in OrderService",
		// T[] is not T
		"bind items type=Order in OrderService",
		"bind list type=Order in OrderService.process",
		"def func OrderService.list L39-39 result=Order",
		// a declared type wins over the constructed one
		"bind typed type=SqlRepo in OrderService.process",
		// parameters of function types and object type members are not locals
		"bind item type=Order in withCallback",
		"bind key type=Key in withCallback",
	})
	checkSignatures(t, f, map[string]string{
		"OrderService":          "class OrderService extends BaseService<Order> implements OnInit, ns.Disposable",
		"OrderService.find":     "async find(id: string, opts?: FindOptions): Promise<Order | undefined>",
		"OrderService.onChange": "onChange = (o: Order): void =>",
		"Repo.get":              "get(id: string): Promise<Order>",
		"BaseService.find":      "abstract find(id: string): Promise<T | undefined>",
		"compute":               "compute = async (input: Input): Promise<Output> =>",
	})
}

// checkSignatures compares the signatures of definitions by qualified name.
func checkSignatures(t *testing.T, f *facts.File, want map[string]string) {
	t.Helper()
	got := map[string]string{}
	for _, d := range f.Defs {
		got[d.Qual] = d.Signature
	}
	for q, w := range want {
		if got[q] != w {
			t.Errorf("signature of %s = %q, want %q", q, got[q], w)
		}
	}
}

func TestTSXFacts(t *testing.T) {
	src := `import React, { useState } from 'react';
import { Card } from './Card';
import * as UI from '@ui/kit';

interface Props {
  user: User;
  onSave(u: User): void;
}

export const identity = <T,>(x: T): T => x;

export function Profile({ user, onSave }: Props): JSX.Element {
  const [open, setOpen] = useState(false);
  const store = new Store();
  const svc = useService() as UserService;
  const save = (u: User) => { store.put(u); onSave(u); };
  return (
    <Card title={user.name}>
      <UI.Button onClick={() => save(user)} />
      <UI.Layout.Row>{format(user)}</UI.Layout.Row>
      <input value={user.name} />
      {open && <Dialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

export default class Page extends React.Component<PageProps> {
  private api: Api;
  render() {
    return <Profile user={this.props.user} onSave={this.handleSave} />;
  }
  handleSave = async (u: User): Promise<void> => {
    await this.api.save(u);
  };
}
`
	f := parseSrc(t, "tsx", "src/Profile.tsx", src)
	checkFacts(t, f, []string{
		"def class Props L5-8",
		"def func Props.onSave L7-7 result=void",
		"def func identity L10-10 result=T",
		"def func Profile L12-25 result=JSX.Element",
		"def func Profile.save L16-16",
		"def class Page L27-35 bases=React.Component",
		"def func Page.render L29-31",
		"def func Page.handleSave L32-34 result=void",
		"import spec=react alias=React kind=default L1",
		"import spec=react name=useState L1",
		"import spec=./Card name=Card L2",
		"import spec=@ui/kit alias=UI L3",
		"call useState L13 in Profile",
		"call Store L14 in Profile new",
		"call store.put L16 in Profile.save",
		"call onSave L16 in Profile.save",
		// components, on the line of their tag; callbacks inside attributes
		// are anonymous functions of the enclosing one
		"call Card L18 in Profile",
		"call UI.Button L19 in Profile",
		"call save L19 in Profile.fn@1",
		"call UI.Layout.Row L20 in Profile",
		"call format L20 in Profile",
		"call Dialog L22 in Profile",
		"call setOpen L22 in Profile.fn@2",
		"call Profile L30 in Page.render",
		"call this.api.save L33 in Page.handleSave",
		"bind user type=User in Props",
		"bind x type=T in identity",
		"bind store type=Store in Profile",
		"bind svc type=UserService in Profile",
		"bind u type=User in Profile.save",
		"bind api type=Api in Page",
		"bind u type=User in Page.handleSave",
	}, []string{
		"call input L21 in Profile",
		"call UI.Button L18 in Profile",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors in valid TSX", f.SyntaxErrors)
	}
}
