// CLI fixture: a module that fails while it loads.
export {};
throw new Error('fixture failed to load');
