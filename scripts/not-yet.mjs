// Placeholder for root scripts whose issue has not landed yet; exits non-zero so nobody mistakes it for success.
const name = process.argv[2] ?? 'this script';
console.error(`monsync: \`pnpm ${name}\` is not available yet in this revision (see the open issues).`);
process.exit(1);
