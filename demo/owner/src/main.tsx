// The owner view's entry: takes the token out of the address, then mounts the app.
import { h, render } from 'preact';
import 'uplot/dist/uPlot.min.css';
import './owner.css';
import { takeTokenFromAddress } from './api.ts';
import { App } from './App.tsx';

takeTokenFromAddress();
const root = document.getElementById('app')!;
root.replaceChildren(); // the page's "Loading…" line: render() would keep it next to the app
render(<App />, root);
