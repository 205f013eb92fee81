// Asset imports resolved by Vite to URLs (vite/client types are not in the root tsconfig).
declare module '*.svg' {
  const src: string;
  export default src;
}
declare module '*.css';
