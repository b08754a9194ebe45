-- Room on each page of the read model's orders for updates that leave the indexed columns alone (heap-only
-- updates, no new index entries). Each projected batch writes an order twice: its fields (updated_at, status,
-- last_event_seq: indexed) and then the executions' roll-up (filled quantity, average price, commission: not
-- indexed). With full pages the roll-up wrote a new entry in each of the table's fifteen indexes.
-- Pages written from now on keep 30 % free; existing ones as they are rewritten.
ALTER TABLE orders SET (fillfactor = 70);
