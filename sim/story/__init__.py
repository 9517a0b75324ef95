"""Words made from records: a fight's log from its events (``log``), a crawl's captions and
sentences (``crawlwords``). Events and crawl records carry numbers and ids; prose is made here."""
