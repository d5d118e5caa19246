package parse

import "testing"

func TestRubyFacts(t *testing.T) {
	src := `require_relative 'base'
require 'shop/cart'
require("json")
require "#{root}/x"
load 'tasks/x.rb'

module Shop
  class Cart < Base
    include Helpers
    extend ClassMethods
    include Comparable, Mixins::Sortable
    attr_reader :items

    def initialize(repo)
      @repo = Repo.new(repo)
      @cache ||= Store::Cache.new
      super
    end

    def add(item)
      x = Foo.new
      y = Mod::Cls.new(1)
      z = make_thing
      w = make_thing(1)
      v = Factory.build
      self.helper
      helper(x)
      helper x
      helper
      @repo.save(item)
      obj&.safe
      Foo.bar
      Mod::Cls.baz
      ::Top.new
      klass.new
      items.each { |i| puts i }
    end

    def self.create(a)
      new(a)
    end

    class << self
      def build; end
    end

    def helper(x = nil) = x
  end

  module Util
    def self.fmt(s) = s
  end

  class Mod::Inner < ::Other::Base
  end
end

def Shop.top; end
`
	f := parseSrc(t, "ruby", "lib/shop/cart.rb", src)
	checkFacts(t, f, []string{
		// modules are classes; superclass and mixins are bases
		"def class Shop L7-56",
		"def class Shop.Cart L8-48 bases=Base,Helpers,ClassMethods,Comparable,Mixins.Sortable",
		"def func Shop.Cart.initialize L14-18",
		"def func Shop.Cart.add L20-37",
		"def func Shop.Cart.create L39-41",
		// methods of `class << self` belong to the class
		"def func Shop.Cart.build L44-44",
		"def func Shop.Cart.helper L47-47",
		"def class Shop.Util L50-52",
		"def func Shop.Util.fmt L51-51",
		// `class Mod::Inner` splits its owner off
		"def class Shop.Mod.Inner L54-55 owner=Mod bases=Other.Base",
		"def func Shop.top L58-58 owner=Shop",
		"import spec=base kind=require_relative L1",
		"import spec=shop/cart kind=require L2",
		"import spec=json kind=require L3",
		"import spec=tasks/x.rb kind=require L5",
		"call Repo L15 in Shop.Cart.initialize new",
		"call Store.Cache L16 in Shop.Cart.initialize new",
		"call super.initialize L17 in Shop.Cart.initialize",
		"call Foo L21 in Shop.Cart.add new",
		"call Mod.Cls L22 in Shop.Cart.add new",
		"call make_thing L24 in Shop.Cart.add",
		"call Factory.build L25 in Shop.Cart.add",
		"call self.helper L26 in Shop.Cart.add",
		"call helper L27 in Shop.Cart.add",
		"call helper L28 in Shop.Cart.add",
		"call @repo.save L30 in Shop.Cart.add",
		"call obj.safe L31 in Shop.Cart.add",
		"call Foo.bar L32 in Shop.Cart.add",
		"call Mod::Cls.baz L33 in Shop.Cart.add",
		"call Top L34 in Shop.Cart.add new",
		"call klass.new L35 in Shop.Cart.add",
		"call items.each L36 in Shop.Cart.add",
		"call puts L36 in Shop.Cart.add",
		"call new L40 in Shop.Cart.create",
		"bind @repo type=Repo in Shop.Cart.initialize",
		"bind @cache type=Store.Cache in Shop.Cart.initialize",
		"bind x type=Foo in Shop.Cart.add",
		"bind y type=Mod.Cls in Shop.Cart.add",
		"bind z call=make_thing in Shop.Cart.add",
		"bind w call=make_thing in Shop.Cart.add",
		"bind v call=Factory.build in Shop.Cart.add",
	}, []string{
		// interpolated paths cannot be resolved
		"import spec=#{root}/x kind=require L4",
		// a bare identifier may be a local variable
		"call helper L29 in Shop.Cart.add",
		"call make_thing L23 in Shop.Cart.add",
		// X.new is a constructor call on X, not a method named new
		"call Foo.new L21 in Shop.Cart.add",
		"call Mod::Cls.new L22 in Shop.Cart.add",
		"bind x call=Foo.new in Shop.Cart.add",
	})
	if f.SyntaxErrors != 0 {
		t.Errorf("%d syntax errors", f.SyntaxErrors)
	}
}

func TestRubyBindingForms(t *testing.T) {
	src := `class Cart
  REGISTRY = Registry.new

  def initialize
    self.repo = Repo.new
    a, b = Foo.new, 2
    @list ||= []
  end
end
`
	f := parseSrc(t, "ruby", "cart.rb", src)
	checkFacts(t, f, []string{
		"bind REGISTRY type=Registry in Cart",
		"bind self.repo type=Repo in Cart.initialize",
		"call Foo L6 in Cart.initialize new",
	}, []string{
		"bind a type=Foo in Cart.initialize",
	})
}

// TestRubySuper: super calls the overridden method, so it is recorded as a
// call of the enclosing method's name on `super`.
func TestRubySuper(t *testing.T) {
	src := `class A < B
  def initialize(x)
    super
  end
  def add(i)
    r = super(i)
    if r
      super
    end
    items.each { super }
  end
  def self.make
    super()
  end
end
`
	f := parseSrc(t, "ruby", "a.rb", src)
	checkFacts(t, f, []string{
		"call super.initialize L3 in A.initialize",
		"call super.add L6 in A.add",
		"call super.add L8 in A.add",
		"call super.make L13 in A.make",
	}, []string{
		// never the base class constructor from an ordinary method
		"call super L6 in A.add",
		"call super L8 in A.add",
	})
}
