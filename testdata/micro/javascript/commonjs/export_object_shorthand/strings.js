'use strict';

function capitalize(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function slugify(s) {
  return s.trim().toLowerCase().split(/\s+/).join('-');
}

const truncate = (s, n) => {
  return s.length > n ? s.slice(0, n) + '...' : s;
};

module.exports = { capitalize, slugify, truncate };
