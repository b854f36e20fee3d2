"""Importing parsed pages: plan (:mod:`.plan`), apply (:mod:`.apply`), undo (:mod:`.undo`),
the operations (:mod:`.handlers`), and the words for what an import will do and did
(:mod:`.wording`)."""
