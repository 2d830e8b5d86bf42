// Registers the search types that exist so far (each file calls registerSearchType once).
import './jobs.ts';
import './client-accounts.ts';
import './contacts.ts';
import './locations.ts';
import './notes.ts';
