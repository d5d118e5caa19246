'use strict';

function normalizeSegments(segments) {
  return segments.filter(Boolean);
}

exports.join = function join(...segments) {
  return normalizeSegments(segments).join('/');
};

exports.basename = function basename(p) {
  const parts = normalizeSegments(p.split('/'));
  return parts[parts.length - 1];
};

exports.extname = function (p) {
  const base = exports.basename(p);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot);
};
