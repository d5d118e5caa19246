// Pattern: decorators as plain functions that replace methods: `obj.m = wrap(obj.m)` on an instance and
// on a prototype, preserving `this`. Modelled on util.deprecate and hand-rolled timing/logging wrappers.
function logCalls(name, fn) {
  return function logged(...args) {
    console.log(`-> ${name}(${args.join(', ')})`);
    return fn.apply(this, args);
  };
}

function deprecate(fn, message) {
  let warned = false;
  return function deprecated(...args) {
    if (!warned) {
      warned = true;
      console.log('DeprecationWarning:', message);
    }
    return fn.apply(this, args);
  };
}

class Account {
  constructor(balance) {
    this.balance = balance;
  }

  deposit(amount) {
    this.balance += amount;
    return this.balance;
  }

  withdraw(amount) {
    this.balance -= amount;
    return this.balance;
  }
}

Account.prototype.withdraw = deprecate(Account.prototype.withdraw, 'withdraw() is deprecated, use transfer()');

const account = new Account(100);
account.deposit = logCalls('deposit', account.deposit);
account.deposit(50);
account.withdraw(20);
console.log('balance', account.withdraw(5));
