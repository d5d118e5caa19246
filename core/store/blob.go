package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bucketBlobs holds documents that are not derived from the source tree
// (the evidence board): unlike the facts they cannot be rebuilt, so every
// write is synced.
var bucketBlobs = []byte("blobs")

// Blob returns the document stored under key, nil when there is none.
func (s *Store) Blob(key string) ([]byte, error) {
	var out []byte
	err := s.with(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketBlobs); b != nil {
				if v := b.Get([]byte(key)); v != nil {
					out = append([]byte(nil), v...)
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("store: read %s: %w", key, err)
	}
	return out, nil
}

// PutBlob stores data under key and syncs it to disk.
func (s *Store) PutBlob(key string, data []byte) error {
	return s.with(func(db *bolt.DB) error {
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(bucketBlobs)
			if err != nil {
				return err
			}
			return b.Put([]byte(key), data)
		})
		if err != nil {
			return fmt.Errorf("store: write %s: %w", key, err)
		}
		if err := db.Sync(); err != nil {
			return fmt.Errorf("store: sync %s: %w", key, err)
		}
		return nil
	})
}
